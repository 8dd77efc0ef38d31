"""Accounts: who a player is and how he is shown.

Owns registration and login (``auth``), sessions and "who is asking"
(``sessions``: ``user_of``, ``require_user``, ``user_json``, ``me_json``), CSRF
and the sockets' Origin check (``csrf``), the avatars and board themes a player
can wear (``avatars``, ``emblems``, ``items``: the shop in ``money`` sells them),
how far a new account is trusted (``trust``: signups per address, the young
accounts' stake cap) and the operators' moderation (``moderation``).

May import: ``sheshbesh.store`` and the server's base modules (``club``,
``errors``, ``settings``). Every other package may import this one.
"""
