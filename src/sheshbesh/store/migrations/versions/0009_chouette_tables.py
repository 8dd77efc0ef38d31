"""chouette tables (issue 18): a request's seats, games without a pair, and game_seats

A chouette table is one ``games`` row of kind ``chouette`` whose seats are rows
of ``game_seats`` (3-8 of them, CH-1): who sits there, what he holds in escrow,
whether he is away or ever arrived. Its ``seat0_id``/``seat1_id`` are NULL, so
they become nullable; every two-player game keeps writing them as before.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("requests", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seats", sa.Integer(), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("seat0_id", existing_type=sa.Integer(), nullable=True)
        batch_op.alter_column("seat1_id", existing_type=sa.Integer(), nullable=True)
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.String(length=12), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("held", sa.BigInteger(), nullable=False),
        sa.Column("away", sa.Float(), nullable=True),
        sa.Column("arrived", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("left_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    with op.batch_alter_table("game_seats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_seats_user_id"), ["user_id"], unique=False)
        batch_op.create_index(
            "one_seat_per_person", ["game_id", "user_id"], unique=True,
            sqlite_where=sa.text("left_at IS NULL"), postgresql_where=sa.text("left_at IS NULL"),
        )  # fmt: skip


def downgrade() -> None:
    with op.batch_alter_table("game_seats", schema=None) as batch_op:
        batch_op.drop_index("one_seat_per_person")
        batch_op.drop_index(batch_op.f("ix_game_seats_user_id"))
    op.drop_table("game_seats")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("seat1_id", existing_type=sa.Integer(), nullable=False)
        batch_op.alter_column("seat0_id", existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table("requests", schema=None) as batch_op:
        batch_op.drop_column("seats")
