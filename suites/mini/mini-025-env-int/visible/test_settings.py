from settings import env_int


def test_unset_gives_default():
    assert env_int({}, "PORT", 8080) == 8080


def test_set_value():
    assert env_int({"PORT": "9000"}, "PORT", 8080) == 9000
