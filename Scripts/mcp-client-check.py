"""Drives `keyward mcp` with the Python MCP client (PyPI `mcp`), as an assistant would.

Usage: python3 Scripts/mcp-client-check.py KEYWARD [EXAMPLE_FOLDER]
Lists the tools, scans a snippet and the example app, explains a rule, proposes a fix, and
checks that a bad call comes back as a tool error, not a broken connection.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

WEAK = """import Security
func saveToken(_ data: Data) {
    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                kSecValueData as String: data,
                                kSecAttrAccessible as String: kSecAttrAccessibleAlways]
    SecItemAdd(query as CFDictionary, nil)
}
"""


def structured(result):
    assert not result.isError, result.content
    # The same JSON comes as structured content and as text, for clients that read only one.
    assert json.loads(result.content[0].text) == result.structuredContent
    return result.structuredContent


async def check(keyward, example):
    server = StdioServerParameters(command=keyward, args=["mcp"])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.serverInfo.name == "keyward", init.serverInfo
            tools = {tool.name for tool in (await session.list_tools()).tools}
            expected = {"scan_path", "scan_snippet", "explain_rule", "list_rules", "propose_fix"}
            assert tools == expected, tools

            snippet = structured(await session.call_tool("scan_snippet", {"source": WEAK}))
            rules = [finding["ruleId"] for finding in snippet["findings"]]
            assert "swift.weak_keychain_accessibility" in rules, rules

            fix = structured(
                await session.call_tool("propose_fix", {"source": WEAK, "line": 5})
            )
            assert "kSecAttrAccessibleAlways" in json.dumps(fix), fix

            explained = structured(
                await session.call_tool("explain_rule", {"ruleId": "swift.weak_biometric_acl"})
            )
            assert explained["markdown"].startswith("# "), explained

            listed = structured(await session.call_tool("list_rules", {"profile": "strict"}))
            assert all(rule["enabled"] for rule in listed["rules"]), listed["profile"]

            scanned = structured(await session.call_tool("scan_path", {"path": example}))
            assert len(scanned["findings"]) > 10, len(scanned["findings"])

            bad = await session.call_tool("explain_rule", {"ruleId": "swift.weak_keychain_acessibility"})
            assert bad.isError and "did you mean" in bad.content[0].text, bad.content
            print(
                f"MCP client: {len(tools)} tools; snippet {len(rules)} findings; "
                f"example app {len(scanned['findings'])} findings; a bad rule id is a tool error"
            )


if __name__ == "__main__":
    asyncio.run(check(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "Examples/VaultApp"))
