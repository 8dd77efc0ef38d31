"""friends, notifications, shop, chat, ratings, play-bans

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(length=400), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("chat_lines", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_lines_room"), ["room"], unique=False)
        batch_op.create_index(batch_op.f("ix_chat_lines_user_id"), ["user_id"], unique=False)

    op.create_table(
        "friend_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("sender_id", sa.Integer(), nullable=False),
        sa.Column("recipient_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("answered_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["recipient_id"],
            ["users.id"],
        ),
        sa.ForeignKeyConstraint(
            ["sender_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("friend_requests", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_friend_requests_recipient_id"), ["recipient_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_friend_requests_sender_id"), ["sender_id"], unique=False
        )

    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("read_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_notifications_user_id"), ["user_id"], unique=False)

    op.create_table(
        "purchases",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("item", sa.String(length=40), nullable=False),
        sa.Column("price", sa.BigInteger(), nullable=False),
        sa.Column("transfer_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["transfer_id"],
            ["transfers.id"],
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "item", name="one_purchase_per_item"),
    )
    with op.batch_alter_table("purchases", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_purchases_user_id"), ["user_id"], unique=False)

    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("pool", sa.String(length=20), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "pool", name="one_rating_per_pool"),
    )
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ratings_user_id"), ["user_id"], unique=False)

    op.create_table(
        "relations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("other_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["other_id"],
            ["users.id"],
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "other_id", name="one_relation_per_pair"),
    )
    with op.batch_alter_table("relations", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_relations_other_id"), ["other_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_relations_user_id"), ["user_id"], unique=False)

    op.create_table(
        "offences",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=12), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "user_id", name="one_offence_per_game"),
    )
    with op.batch_alter_table("offences", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_offences_user_id"), ["user_id"], unique=False)

    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=12), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("pool", sa.String(length=20), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "user_id", name="one_change_per_player"),
    )
    with op.batch_alter_table("rating_changes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rating_changes_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_rating_changes_user_id"), ["user_id"], unique=False)

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("rated", sa.Boolean(), server_default=sa.false(), nullable=False)
        )

    with op.batch_alter_table("requests", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("rated", sa.Boolean(), server_default=sa.true(), nullable=False)
        )

    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("avatar", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("theme", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("chat_muted_until", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("chat_muted_until")
        batch_op.drop_column("theme")
        batch_op.drop_column("avatar")

    with op.batch_alter_table("requests", schema=None) as batch_op:
        batch_op.drop_column("rated")

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("rated")

    with op.batch_alter_table("rating_changes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rating_changes_user_id"))
        batch_op.drop_index(batch_op.f("ix_rating_changes_game_id"))

    op.drop_table("rating_changes")
    with op.batch_alter_table("offences", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_offences_user_id"))

    op.drop_table("offences")
    with op.batch_alter_table("relations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_relations_user_id"))
        batch_op.drop_index(batch_op.f("ix_relations_other_id"))

    op.drop_table("relations")
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ratings_user_id"))

    op.drop_table("ratings")
    with op.batch_alter_table("purchases", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_purchases_user_id"))

    op.drop_table("purchases")
    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_notifications_user_id"))

    op.drop_table("notifications")
    with op.batch_alter_table("friend_requests", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_friend_requests_sender_id"))
        batch_op.drop_index(batch_op.f("ix_friend_requests_recipient_id"))

    op.drop_table("friend_requests")
    with op.batch_alter_table("chat_lines", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_lines_user_id"))
        batch_op.drop_index(batch_op.f("ix_chat_lines_room"))

    op.drop_table("chat_lines")
