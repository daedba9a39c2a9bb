from throttle import Client, should_throttle


def test_regular_client_over_limit():
    assert should_throttle(Client("web"), 101, 100)


def test_regular_client_under_limit():
    assert not should_throttle(Client("web"), 99, 100)


def test_admin_is_never_throttled():
    assert not should_throttle(Client("root", is_admin=True), 500, 100)
