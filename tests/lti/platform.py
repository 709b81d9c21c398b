"""A small LTI 1.3 platform on loopback, speaking the real protocol to the tool.

It has its own RSA key pair and publishes its JWKS; it signs id_tokens; its
token endpoint grants client_credentials only for a JWT assertion signed by
the tool (checked against the tool's published JWKS); its Names and Roles
and line item/score endpoints answer only with that token and record what
they received.
"""

from __future__ import annotations

import html
import json
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwcrypto.jwk import JWK

CLIENT_ID = "argue-tool"
DEPLOYMENT_ID = "deployment-1"
LTI = "https://purl.imsglobal.org/spec/lti/claim/"
MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership#"


def new_private_pem() -> bytes:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


class TestPlatform:
    __test__ = False

    def __init__(self) -> None:
        self.private_pem = new_private_pem()
        self.kid = "platform-key-1"
        self.tool_jwks: dict | None = None
        self.tokens: dict[str, list[str]] = {}
        self.token_requests: list[dict] = []
        self.scores: list[dict] = []
        self.lineitems: list[dict] = [
            {"id": "", "label": "Week 3", "scoreMaximum": 10, "resourceLinkId": "link-1"}
        ]
        self.members: list[dict] = []
        # When set, the memberships endpoint answers this instead of a container.
        self.membership_body: object = None
        # Seconds to wait before answering a token request: a platform that hangs.
        self.token_delay = 0.0
        # The LMS's course page (GET /course?sub=...) frames the tool's login initiation
        # URL, and /auth answers with a form that posts the signed launch, as an LMS does.
        self.tool_login_url = ""
        self.roles: dict[str, list[str]] = {}
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    # --- addresses -------------------------------------------------------
    @property
    def issuer(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}"

    def url(self, path: str) -> str:
        return self.issuer + path

    def start(self) -> TestPlatform:
        self.lineitems[0]["id"] = self.url("/lineitems/1")
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    # --- keys and id_tokens ---------------------------------------------
    def jwks(self) -> dict:
        jwk = json.loads(JWK.from_pem(self.private_pem).export_public())
        jwk.update(kid=self.kid, alg="RS256", use="sig")
        return {"keys": [jwk]}

    def claims(self, *, sub: str, roles: list[str], nonce: str, **extra) -> dict:
        now = int(time.time())
        body = {
            "iss": self.issuer,
            "aud": CLIENT_ID,
            "sub": sub,
            "iat": now,
            "exp": now + 300,
            "nonce": nonce,
            "name": f"User {sub}",
            "given_name": "User",
            "family_name": sub,
            "email": f"{sub}@school.example",
            LTI + "deployment_id": DEPLOYMENT_ID,
            LTI + "message_type": "LtiResourceLinkRequest",
            LTI + "version": "1.3.0",
            LTI + "target_link_uri": "http://testserver/lti/launch/",
            LTI + "roles": roles,
            LTI + "resource_link": {"id": "link-1", "title": "Week 3: school uniforms"},
            LTI + "context": {
                "id": "course-1",
                "label": "PHIL101",
                "title": "Philosophy 101",
                "type": ["http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"],
            },
            "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
                "context_memberships_url": self.url("/memberships"),
                "service_versions": ["2.0"],
            },
            "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {
                "scope": [
                    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
                    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
                ],
                "lineitems": self.url("/lineitems"),
                "lineitem": self.url("/lineitems/1"),
            },
        }
        body.update(extra)
        return body

    def sign(self, body: dict, *, private_pem: bytes | None = None) -> str:
        return jwt.encode(
            body, private_pem or self.private_pem, algorithm="RS256", headers={"kid": self.kid}
        )

    # --- an LMS page that opens the tool in an iframe ----------------------
    def course_page(self, sub: str) -> str:
        src = html.escape(self.login_url(sub))
        return (
            "<!doctype html><title>Philosophy 101</title><h1>Philosophy 101</h1>"
            f'<iframe id="tool" title="Argue" src="{src}" width="1000" height="700"></iframe>'
        )

    def login_url(self, sub: str) -> str:
        """The tool's login initiation as this LMS opens it (in its iframe or a new window)."""
        params = urlencode(
            {
                "iss": self.issuer,
                "login_hint": sub,
                "target_link_uri": self.tool_login_url.replace("/lti/login/", "/lti/launch/"),
                "client_id": CLIENT_ID,
                "lti_message_hint": "hint",
            }
        )
        return f"{self.tool_login_url}?{params}"

    def auth_response(self, params: dict[str, str], origin: str) -> str:
        """The OIDC auth endpoint: a form that posts the signed id_token back, at once."""
        sub = params["login_hint"]
        roles = self.roles.get(sub, [MEMBERSHIP + "Learner"])
        body = self.claims(sub=sub, roles=roles, nonce=params["nonce"])
        body[LTI + "launch_presentation"] = {
            "document_target": "iframe",
            "return_url": f"{origin}/course",
        }
        fields = {"id_token": self.sign(body), "state": params["state"]}
        inputs = "".join(
            f'<input type="hidden" name="{name}" value="{html.escape(value)}">'
            for name, value in fields.items()
        )
        action = html.escape(params["redirect_uri"])
        return (
            f'<!doctype html><form method="post" action="{action}">{inputs}</form>'
            "<script>document.forms[0].submit()</script>"
        )

    # --- the tool's client_credentials grant ------------------------------
    def grant(self, form: dict[str, str]) -> str | None:
        """An access token if the tool's assertion is valid, else None."""
        self.token_requests.append(form)
        if form.get("grant_type") != "client_credentials" or self.tool_jwks is None:
            return None
        assertion = form.get("client_assertion", "")
        try:
            kid = jwt.get_unverified_header(assertion).get("kid")
            keys = {k["kid"]: k for k in self.tool_jwks["keys"]}
            key = jwt.PyJWK(keys[kid]).key
            body = jwt.decode(assertion, key, algorithms=["RS256"], audience=self.url("/token"))
        except (jwt.InvalidTokenError, KeyError):
            return None
        if body.get("iss") != CLIENT_ID or body.get("sub") != CLIENT_ID:
            return None
        token = secrets.token_urlsafe(16)
        self.tokens[token] = form.get("scope", "").split()
        return token

    def _handler(self):
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # quiet
                pass

            def _send(self, status: int, body: object, content_type="application/json") -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _authorized(self) -> bool:
                header = self.headers.get("Authorization", "")
                return header.startswith("Bearer ") and header[7:] in platform.tokens

            def _body(self) -> bytes:
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))

            def _html(self, html: str) -> None:
                data = html.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                path = urlparse(self.path).path
                query = {k: v[0] for k, v in parse_qs(urlparse(self.path).query).items()}
                if path == "/jwks":
                    return self._send(200, platform.jwks())
                if path == "/course":
                    return self._html(platform.course_page(query["sub"]))
                if path == "/auth":
                    host = self.headers.get("Host", "")
                    return self._html(platform.auth_response(query, f"http://{host}"))
                if not self._authorized():
                    return self._send(401, {"error": "unauthorized"})
                if path == "/memberships" and platform.membership_body is not None:
                    return self._send(200, platform.membership_body)
                if path == "/memberships":
                    return self._send(
                        200,
                        {
                            "id": platform.url("/memberships"),
                            "context": {"id": "course-1", "title": "Philosophy 101"},
                            "members": platform.members,
                        },
                        "application/vnd.ims.lti-nrps.v2.membershipcontainer+json",
                    )
                if path == "/lineitems":
                    return self._send(
                        200, platform.lineitems, "application/vnd.ims.lis.v2.lineitemcontainer+json"
                    )
                return self._send(404, {})

            def do_POST(self) -> None:
                path = urlparse(self.path).path
                body = self._body()
                if path == "/token":
                    time.sleep(platform.token_delay)
                    form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
                    token = platform.grant(form)
                    if token is None:
                        return self._send(400, {"error": "invalid_client"})
                    return self._send(
                        200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600}
                    )
                if not self._authorized():
                    return self._send(401, {"error": "unauthorized"})
                if path.startswith("/lineitems/") and path.endswith("/scores"):
                    platform.scores.append(
                        {
                            "lineitem": platform.url(path.removesuffix("/scores")),
                            "content_type": self.headers.get("Content-Type"),
                            "score": json.loads(body),
                        }
                    )
                    return self._send(200, {})
                return self._send(404, {})

        return Handler
