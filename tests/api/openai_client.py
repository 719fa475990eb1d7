"""Talks to Sidecar's local API with the official `openai` Python client, as any script
would: one plain chat completion and one streamed, then a call with a wrong token.

Usage: openai_client.py BASE_URL TOKEN
Prints JSON: {"reply", "streamed", "chunks", "models", "wrong_token"}.
"""
import json
import sys

import openai

base_url, token = sys.argv[1], sys.argv[2]
client = openai.OpenAI(base_url=base_url, api_key=token, max_retries=0, timeout=60)
reply = client.chat.completions.create(model="sidecar", messages=[{"role": "user", "content": "What do I play on Thursdays?"}])
chunks = []
for chunk in client.chat.completions.create(model="sidecar", messages=[{"role": "user", "content": "And on Fridays?"}], stream=True):
    if chunk.choices and chunk.choices[0].delta.content:
        chunks.append(chunk.choices[0].delta.content)
models = [m.id for m in client.models.list().data]
wrong = openai.OpenAI(base_url=base_url, api_key="sk-sidecar-not-a-token", max_retries=0)
try:
    wrong.chat.completions.create(model="sidecar", messages=[{"role": "user", "content": "hi"}])
    wrong_token = "answered"
except openai.AuthenticationError as error:
    wrong_token = f"401: {error.message}"
print(json.dumps({"reply": reply.choices[0].message.content, "streamed": "".join(chunks), "chunks": len(chunks), "models": models, "wrong_token": wrong_token}))
