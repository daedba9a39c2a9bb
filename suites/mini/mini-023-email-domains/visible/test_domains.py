from domains import domain_counts


def test_counts_domains():
    users = [{"email": "a@x.org"}, {"email": "b@x.org"}, {"email": "c@y.com"}]
    assert domain_counts(users) == {"x.org": 2, "y.com": 1}


def test_user_without_email_is_skipped():
    assert domain_counts([{"email": "a@x.org"}, {"name": "bob"}]) == {"x.org": 1}
