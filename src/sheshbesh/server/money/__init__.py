"""Money: every movement of FUN that a player sees, through the ledger in ``store``.

Owns the escrow of games (``escrow``: holds at the start and on doubles, the
payout at the end, PL-4 and PL-5), the house that covers the bots' stakes
(``house``), the shop (``shop``: buying avatars and board themes, equipping
them) and the wallet's history (``wallet``). The ledger itself (double entry,
never negative, summing to zero) stays in ``sheshbesh.store.ledger``.

May import: ``notify``, ``accounts`` and the base modules. The rounds and the
lobby call escrow; it never imports them.
"""
