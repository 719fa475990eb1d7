"""Drives `sidecar mcp serve` with the official MCP Python SDK client, as another
program would: connects under a name, lists the tools, makes the calls given as JSON on
the command line, and prints one JSON line with what came back.

    python sidecar_client.py SIDECAR_BIN CLIENT_NAME '[["recall", {"query": "..."}], ...]'

SIDECAR_BIN may be the endpoint's address instead (http://127.0.0.1:PORT/mcp): the
client then speaks streamable HTTP to the running app, presenting the token in
SIDECAR_MCP_TOKEN (if set) as a bearer header, with the Origin in SIDECAR_MCP_ORIGIN
(if set). A connection the server refuses prints {"refused": "why"} and exits 0.

A call named "resource:URI" reads that resource instead.

The data and config come from the environment (SIDECAR_DATA_DIR, SIDECAR_CONFIG).
"""
import asyncio
import json
import os
import sys

import mcp.types as types
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def transport(binary):
    if binary.startswith("http"):
        headers = {}
        if os.environ.get("SIDECAR_MCP_TOKEN"):
            headers["Authorization"] = "Bearer " + os.environ["SIDECAR_MCP_TOKEN"]
        if os.environ.get("SIDECAR_MCP_ORIGIN"):
            headers["Origin"] = os.environ["SIDECAR_MCP_ORIGIN"]
        return streamable_http_client(binary, http_client=create_mcp_http_client(headers=headers))
    return stdio_client(StdioServerParameters(command=binary, args=["mcp", "serve"], env=dict(os.environ)))


async def main(binary, name, calls):
    async with transport(binary) as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write, client_info=types.Implementation(name=name, version="1.0")) as session:
            try:
                await session.initialize()
            except MCPError as error:
                print(json.dumps({"refused": str(error)}))
                return
            listed = await session.list_tools()
            results = []
            resources = await session.list_resources()
            for tool, arguments in calls:
                if tool.startswith("resource:"):
                    try:
                        read = await session.read_resource(tool[len("resource:"):])
                        results.append({"tool": tool, "error": False, "text": "\n".join(c.text for c in read.contents)})
                    except Exception as error:  # the server's refusal comes back as an MCP error
                        results.append({"tool": tool, "error": True, "text": str(error)})
                    continue
                result = await session.call_tool(tool, arguments)
                text = "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")
                results.append({"tool": tool, "error": bool(result.is_error), "text": text})
            print(json.dumps({"tools": sorted(t.name for t in listed.tools), "resources": sorted(str(r.uri) for r in resources.resources), "results": results}))


def refusal(error):
    """The server's reason for refusing the connection, however deep the SDK's task
    groups wrapped it: an MCP error raised before the handshake completed."""
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            found = refusal(inner)
            if found:
                return found
        return None
    return str(error) if isinstance(error, MCPError) else None


if __name__ == "__main__":
    try:
        asyncio.run(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3])))
    except BaseException as error:  # noqa: BLE001 - a refusal is an answer here
        why = refusal(error)
        if why is None:
            raise
        print(json.dumps({"refused": why}))
