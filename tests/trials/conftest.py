import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # PBKDF2 costs about a second per user on this machine; the hash is not under test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
