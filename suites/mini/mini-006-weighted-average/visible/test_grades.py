from grades import course_grade, weighted_average


def test_equal_weights():
    assert weighted_average([2.0, 4.0], [1.0, 1.0]) == 3.0


def test_course_grade():
    assert course_grade({"homework": 80.0, "exam": 90.0}, {"homework": 1.0, "exam": 1.0}) == 85.0
