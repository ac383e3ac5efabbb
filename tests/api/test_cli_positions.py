"""`lexpy --dump --positions` (issue 37): the tree with each node's source
span; nodes the parser made have none."""
import subprocess
import sys


def test_dump_positions(tmp_path):
    page = tmp_path / "page.html"
    page.write_bytes(b"<!DOCTYPE html>\n<p class=x>Hi<b>b</b></p>")
    result = subprocess.run([sys.executable, "-m", "lexpy", "--dump", "--positions",
                             str(page)], capture_output=True, check=True)
    lines = result.stdout.decode().splitlines()
    assert lines[0] == "| <!DOCTYPE html> @1:1-1:16"
    assert "| <html>" in lines and "|   <body>" in lines
    assert "|     <p> @2:1-2:12 </@2:22-2:26>" in lines
    assert '|       "Hi" @2:12-2:14' in lines
