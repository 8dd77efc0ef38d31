"""abuse of accounts (issue 16): signups per address, moderation reports, login failures
per address and the addresses an account is known at, the club's own secrets

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "signups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("signups", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_signups_address"), ["address"], unique=False)
        batch_op.create_index(batch_op.f("ix_signups_user_id"), ["user_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_signups_at"), ["at"], unique=False)

    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("suspect_id", sa.Integer(), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("flagged_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["suspect_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("kind", "suspect_id", name="one_report_per_suspect"),
    )
    with op.batch_alter_table("reports", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_reports_suspect_id"), ["suspect_id"], unique=False)

    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("address", sa.String(length=64), nullable=False, server_default="")
        )
        batch_op.add_column(sa.Column("session_hash", sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f("ix_login_failures_address"), ["address"], unique=False)
        batch_op.create_index(batch_op.f("ix_login_failures_at"), ["at"], unique=False)

    op.create_table(
        "known_addresses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("last_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "address", name="one_row_per_address"),
    )
    with op.batch_alter_table("known_addresses", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_known_addresses_user_id"), ["user_id"], unique=False)

    op.create_table(
        "club_secrets",
        sa.Column("name", sa.String(length=20), nullable=False),
        sa.Column("value", sa.String(length=100), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("club_secrets")
    op.drop_table("known_addresses")
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_login_failures_at"))
        batch_op.drop_index(batch_op.f("ix_login_failures_address"))
        batch_op.drop_column("session_hash")
        batch_op.drop_column("address")
    op.drop_table("reports")
    op.drop_table("signups")
