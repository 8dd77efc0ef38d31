"""arrivals (issue 16, item 4): whether each seat's player has ever opened the game

A game one of whose players never arrived is aborted and refunded instead of
forfeited. Games stored before this revision count as arrived (PL-7 as before).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("arrived0", sa.Boolean(), nullable=False, server_default=sa.true())
        )
        batch_op.add_column(
            sa.Column("arrived1", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("arrived1")
        batch_op.drop_column("arrived0")
