import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def ada(client):
    """A student, signed in on ``client``."""
    user = get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    client.force_login(user)
    return user
