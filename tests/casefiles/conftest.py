import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def owner():
    """The user who owns the case files of a test."""
    return get_user_model().objects.create_user("ada", password="a-long-enough-pass")
