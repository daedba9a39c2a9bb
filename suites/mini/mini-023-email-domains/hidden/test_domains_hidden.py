from domains import domain_counts, email_domain


def test_none_and_empty_addresses_are_skipped():
    users = [{"email": None}, {"email": ""}, {"email": "z@q.io"}]
    assert domain_counts(users) == {"q.io": 1}


def test_case_insensitive_domains():
    assert domain_counts([{"email": "a@X.org"}, {"email": "b@x.ORG"}]) == {"x.org": 2}


def test_no_users():
    assert domain_counts([]) == {}


def test_only_users_without_addresses():
    assert domain_counts([{"name": "a"}, {"email": None}]) == {}


def test_last_at_sign_wins():
    assert email_domain('"odd@name"@Example.com') == "example.com"
