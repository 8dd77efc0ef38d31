"""watchers and nodes (issue 20): spectator counts that a crashed process takes with it

Each process keeps its own count of a game's spectators (``watchers``) and says
it is alive every few seconds (``nodes``); a game's count is the sum over the
live processes, so a process killed without a word no longer leaves its
spectators counted for ever.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("node", sa.String(length=16), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("node"),
    )
    op.create_table(
        "watchers",
        sa.Column("game_id", sa.String(length=12), nullable=False),
        sa.Column("node", sa.String(length=16), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("game_id", "node"),
    )


def downgrade() -> None:
    op.drop_table("watchers")
    op.drop_table("nodes")
