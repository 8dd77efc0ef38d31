"""a process that shuts down says when: nodes.stopped_at

A club whose every process was down stopped its live games' clocks meanwhile (nobody
could move): the process that starts first credits the outage, from the moment the club
was last known alive. A clean shutdown marks that moment exactly, and tells the other
processes at once that it is not alive any more. NULL for a process running, or killed.

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("nodes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("stopped_at", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("nodes", schema=None) as batch_op:
        batch_op.drop_column("stopped_at")
