from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Player


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password="correct horse battery")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password="another staple battery")


@pytest.fixture
def alice_client(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob: User) -> Client:
    other = Client()
    other.force_login(bob)
    return other


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # PBKDF2 at production strength costs ~0.3 s a login; tests only need a hash.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def ann_ben_cat(alice: User) -> list[Player]:
    """Three players of alice's, in seat order."""
    return [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
