"""bot accounts (engine and policy) and private requests

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot_engine", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("bot_policy", sa.JSON(), nullable=True))
    with op.batch_alter_table("requests", schema=None) as batch_op:
        batch_op.add_column(sa.Column("invitee_id", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("bots_may_accept", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.create_index(batch_op.f("ix_requests_invitee_id"), ["invitee_id"], unique=False)
        batch_op.create_foreign_key("fk_requests_invitee_id_users", "users", ["invitee_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("requests", schema=None) as batch_op:
        batch_op.drop_constraint("fk_requests_invitee_id_users", type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_requests_invitee_id"))
        batch_op.drop_column("bots_may_accept")
        batch_op.drop_column("invitee_id")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("bot_policy")
        batch_op.drop_column("bot_engine")
