"""crew proposals (issue 18, CH-4): a chouette crew line may carry a proposed play

A bettor proposes a play to his captain in the crew's chat; the line keeps the
play's text so the captain's board can draw it. NULL for every other line.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat_lines", schema=None) as batch_op:
        batch_op.add_column(sa.Column("play", sa.String(60), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat_lines", schema=None) as batch_op:
        batch_op.drop_column("play")
