"""a request knows the game it offers again: requests.rematch_of

Rematch on a finished game accepts the opponent's standing offer only when that offer
is a rematch of the same game; until now only the challenge note said so, and an
ordinary challenge between the same two players was taken for one. NULL for every
other request. Rematch offers open at the upgrade have no game named, so they stay
ordinary challenges: either player's Rematch offers the game again.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("requests", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rematch_of", sa.String(length=12), nullable=True))
        batch_op.create_foreign_key("fk_requests_rematch_of_games", "games", ["rematch_of"],
                                    ["id"])  # fmt: skip


def downgrade() -> None:
    with op.batch_alter_table("requests", schema=None) as batch_op:
        batch_op.drop_constraint("fk_requests_rematch_of_games", type_="foreignkey")
        batch_op.drop_column("rematch_of")
