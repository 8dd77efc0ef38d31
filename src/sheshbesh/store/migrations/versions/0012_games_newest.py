"""a player's games newest first (session 14): one index per seat for the games list

The profile lists a player's games a page at a time, newest first
(``relations/history.py``). With an index on (seat, created_at, id) for each seat,
a page reads its rows in order from each and stops, whatever the player's history.

Revision ID: 0012
Revises: 0011
"""

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("games_seat0_newest", "games", ["seat0_id", "created_at", "id"])
    op.create_index("games_seat1_newest", "games", ["seat1_id", "created_at", "id"])


def downgrade() -> None:
    op.drop_index("games_seat1_newest", table_name="games")
    op.drop_index("games_seat0_newest", table_name="games")
