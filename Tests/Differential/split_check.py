#!/usr/bin/env python3
"""Checks pgwarden's statement splitter against PostgreSQL's own parser (libpg_query,
through PyPI's pglast): for every text of the corpus, the splitter's pieces must be as
many as the parser's statements, each piece must parse as exactly one statement, and
each piece's kind (what it does to the session) must be the parser's.

Input: a JSON file written by SplitterDifferentialTests: [{"sql": ..., "pieces":
[{"text": ..., "kind": ...}]}]. Prints every disagreement; exits 1 if there is one.
"""
import json
import sys

from pglast import parser


def kind_of(node):
    """The StatementKind (as pgwarden names it) of one parsed statement."""
    name, body = next(iter(node.items()))
    if name == "TransactionStmt":
        return {
            "TRANS_STMT_BEGIN": "begin", "TRANS_STMT_START": "begin",
            "TRANS_STMT_COMMIT": "commit", "TRANS_STMT_ROLLBACK": "rollback",
            "TRANS_STMT_SAVEPOINT": "savepoint", "TRANS_STMT_RELEASE": "savepoint",
            "TRANS_STMT_ROLLBACK_TO": "savepoint", "TRANS_STMT_PREPARE": "twoPhase",
            "TRANS_STMT_COMMIT_PREPARED": "twoPhase", "TRANS_STMT_ROLLBACK_PREPARED": "twoPhase",
        }[body["kind"]]
    if name == "VariableSetStmt":
        kind = body["kind"]
        setting = body.get("name", "")
        if kind == "VAR_RESET_ALL":
            return "sessionReset"
        if setting in ("role", "session_authorization"):
            return "roleChange"
        if kind == "VAR_SET_MULTI" or body.get("is_local"):
            return "transactionSetting"
        return "sessionSetting"
    if name == "ConstraintsSetStmt":
        return "transactionSetting"
    if name == "DiscardStmt":
        return "sessionReset"
    if name == "CallStmt":
        return "call"
    if name == "CopyStmt" and body.get("is_from") and not body.get("filename") and not body.get("is_program"):
        return "copyFromStdin"
    return "other"


def statements(sql):
    return [raw["stmt"] for raw in json.loads(parser.parse_sql_json(sql))["stmts"]]


def main(path):
    with open(path, encoding="utf-8") as corpus_file:
        corpus = json.load(corpus_file)
    disagreements = 0
    for case in corpus:
        sql, pieces = case["sql"], case["pieces"]
        try:
            theirs = statements(sql)
        except parser.ParseError as error:
            print(f"corpus text does not parse ({error}): {sql!r}")
            disagreements += 1
            continue
        problems = []
        if len(theirs) != len(pieces):
            problems.append(f"{len(pieces)} pieces, the parser finds {len(theirs)} statements")
        for piece in pieces:
            try:
                parsed = statements(piece["text"])
            except parser.ParseError as error:
                problems.append(f"piece {piece['text']!r} does not parse: {error}")
                continue
            if len(parsed) != 1:
                problems.append(f"piece {piece['text']!r} holds {len(parsed)} statements")
            elif kind_of(parsed[0]) != piece["kind"]:
                problems.append(f"piece {piece['text']!r}: kind {piece['kind']}, the parser says {kind_of(parsed[0])}")
        if problems:
            disagreements += 1
            print(f"{sql!r}:\n  " + "\n  ".join(problems))
    print(f"{len(corpus)} texts, {disagreements} disagreements")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
