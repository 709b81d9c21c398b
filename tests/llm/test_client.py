import pytest

from llm import LLMError, api_key_configured, make_async_client, make_client


def test_it_sees_no_key_and_refuses_to_build_clients(no_anthropic_key):
    assert api_key_configured() is False
    for factory in (make_async_client, make_client):
        with pytest.raises(LLMError) as caught:
            factory(timeout=5, max_retries=0)
        assert caught.value.code == "unavailable"


def test_it_treats_a_blank_key_as_missing(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "  ")
    assert api_key_configured() is False


def test_it_builds_clients_with_the_given_timeout_and_retries(fake_anthropic):
    assert api_key_configured() is True
    with make_client(timeout=7.5, max_retries=3) as client:
        assert (client.timeout, client.max_retries) == (7.5, 3)
        assert str(client.base_url).rstrip("/") == fake_anthropic.base_url


def test_it_streams_over_aiohttp(fake_anthropic):
    """The async client's transport is the SDK's aiohttp one (less CPU per streamed reply).

    Nothing fails without it (the SDK falls back to httpx only if told to), so this
    is what notices a change that drops it: the session appears once a request went
    through aiohttp.
    """
    import aiohttp

    from llm import astream_structured
    from tests.fakes.anthropic_server import Reply
    from tests.llm.support import call_kwargs, collect, run, valid_reply

    fake_anthropic.enqueue(Reply.json(valid_reply("Hello there."), chunk_chars=4))

    async def stream() -> object:
        async with make_async_client(timeout=5, max_retries=0) as client:
            items = await collect(astream_structured(**call_kwargs(client)))
            return items, client._client._transport.client

    items, session = run(stream())
    assert items[-1].reply.parsed.assistantText == "Hello there."
    assert isinstance(session, aiohttp.ClientSession)
