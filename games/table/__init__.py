"""A table without Django: what the server and the browser's offline table run alike.

Over the rules (:mod:`games.engine`) and the computers (:mod:`games.bots`), and like them
pure Python: the rules of conduct at a live table (:mod:`~games.table.conduct`), the parse of
a client's move (:mod:`~games.table.protocol`), a game's public history
(:mod:`~games.table.history`), the table drawn from plain facts (:mod:`~games.table.drawing`,
with :mod:`~games.table.templating` and :mod:`~games.table.learn`) and the offline table
(:mod:`~games.table.offline`). The offline bundle takes this package whole
(``solo.offline``), and ``tests/test_types.py`` checks that nothing here imports Django.
"""
