#!/usr/bin/env python3
"""Answer an Interlude deployment's questions through interlude-gateway, with nothing but the
Python standard library.

Follows `input_requested` on the gateway's event stream (Server-Sent Events) and answers each
question: a confirm with the answer token the app handed over (here: JSON lines on stdin,
{"generation_id", "tool_call_id", "token"}; in a service, from a link or a message), a text
question with an API key that has the answer scope. Exits once EXPECT_COMPLETED generations it
answered have completed.

    GATEWAY_URL=http://127.0.0.1:8090 GATEWAY_API_KEY=... EXPECT_COMPLETED=2 python3 answer_questions.py
"""
import json
import os
import sys
import urllib.error
import urllib.request

GATEWAY_URL = os.environ["GATEWAY_URL"].rstrip("/")
API_KEY = os.environ["GATEWAY_API_KEY"]
EXPECT_COMPLETED = int(os.environ.get("EXPECT_COMPLETED", "1"))


def post(path, credential, body):
    """POSTs JSON; returns (status, body). Errors are {"error": {"code", "message"}}."""
    request = urllib.request.Request(
        GATEWAY_URL + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"authorization": "Bearer " + credential, "content-type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def events(path, credential):
    """Yields (event name, event) from a Server-Sent Events stream."""
    headers = {"authorization": "Bearer " + credential, "accept": "text/event-stream"}
    request = urllib.request.Request(GATEWAY_URL + path, headers=headers)
    with urllib.request.urlopen(request) as response:
        name, data = None, []
        for raw in response:
            line = raw.decode("utf-8").rstrip("\r\n")
            if line == "":
                if data:
                    yield name, json.loads("\n".join(data))
                name, data = None, []
            elif line.startswith(":"):
                if line == ": connected":
                    print("following", flush=True)
            elif line.startswith("event:"):
                name = line[len("event:"):].strip()
            elif line.startswith("data:"):
                data.append(line[len("data:"):].lstrip())


tokens = {}


def token_for(generation_id, tool_call_id):
    """The answer token of a question, read from stdin until it arrives."""
    while (generation_id, tool_call_id) not in tokens:
        handed = json.loads(sys.stdin.readline())
        tokens[(handed["generation_id"], handed["tool_call_id"])] = handed["token"]
    return tokens[(generation_id, tool_call_id)]


def answer(event):
    generation_id = event["generation_id"]
    for question in event["data"]["input_requests"]:
        call = question["tool_call_id"]
        if question["kind"] == "confirm":
            credential, value, how = token_for(generation_id, call), True, "token"
        else:
            credential, value, how = API_KEY, "The customer was charged twice", "key"
        status, body = post(f"/v1/generations/{generation_id}/answers", credential, {"answers": {call: value}})
        if status >= 400:
            sys.exit(f"answering {generation_id} {call} failed: {status} {body['error']['code']}")
        print(f"answered {generation_id} {call} by {how}: {status} {body['resumed']}", flush=True)


answered, completed = set(), set()
for name, event in events("/v1/events?event=input_requested,completed", API_KEY):
    if name == "input_requested":
        answer(event)
        answered.add(event["generation_id"])
    elif name == "completed" and event["generation_id"] in answered:
        completed.add(event["generation_id"])
        print(f"completed {event['generation_id']}", flush=True)
        if len(completed) == EXPECT_COMPLETED:
            break
