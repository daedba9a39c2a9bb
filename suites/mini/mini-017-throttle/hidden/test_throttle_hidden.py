from throttle import Client, is_exempt, should_throttle


def test_allowlisted_is_never_throttled():
    assert not should_throttle(Client("partner", allowlisted=True), 500, 100)


def test_exemptions():
    assert is_exempt(Client("a", is_admin=True))
    assert is_exempt(Client("b", allowlisted=True))
    assert is_exempt(Client("c", is_admin=True, allowlisted=True))
    assert not is_exempt(Client("d"))


def test_exactly_at_limit_is_fine():
    assert not should_throttle(Client("web"), 100, 100)


def test_zero_limit():
    assert should_throttle(Client("bot"), 1, 0)
