"""The lexpy command line (python -m lexpy)."""
import sys


def main(argv=None) -> int:
    print("lexpy: the command line is not implemented yet", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
