from tests.solo.conftest import ann, player, stranger  # noqa: F401 (fixtures)
