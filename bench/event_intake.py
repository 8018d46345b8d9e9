"""Bulk intake for a tournament: N real-format lists in one file, cut, judged and stored.
Prints numbers; asserts nothing.

    .venv/bin/python bench/event_intake.py [--lists 1000] [--seed 2025]

Loads the shipped snapshot into a scratch SQLite database (or DATABASE_URL), generates N
armies written as players write them (bench/realformat.py), joins them into one text file
the way organisers collect them (a `---` line and `Player: name`, markdown headings, bold
names, `Joueur : name`, in turn), and measures on one core:
1. the baseline: the same N texts through the checking service alone (`check_many`,
   what POST /api/v1/lists/check-batch/ runs);
2. the whole intake: cutting the file (`events.intake.read_intake`), judging every list
   with the event's settings, and storing each verdict with its reading in both languages,
   card versions and fingerprint (`events.services.intake_lists`): total time, lists/s,
   the ratio to the baseline, and the share of each step;
3. whether each list reached the right player and was read exactly as it was built.
"""

import argparse
import os
import time

from harness import migrate_with_cards, scratch_folder, start_django

SEPARATORS = (
    lambda name: f"---\nPlayer: {name}\n",
    lambda name: f"\n# {name}\n",
    lambda name: f"\n**{name}**\n",
    lambda name: f"\nJoueur : {name}\n",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2025)
    args = parser.parse_args()

    scratch_folder()
    start_django()
    from django.contrib.auth import get_user_model
    from realformat import generate, reading_of

    from armybuilder.checking import check_many
    from armybuilder.pool import tmg_pool
    from events import services
    from events.intake import read_intake
    from events.judging import check_options

    migrate_with_cards()
    pool = tmg_pool()
    generated = generate(pool.cards, args.lists, args.seed)
    names = [f"Player {item.number:04d}" for item in generated]
    text = "".join(
        SEPARATORS[i % len(SEPARATORS)](name) + item.text
        for i, (name, item) in enumerate(zip(names, generated, strict=True))
    )
    organiser = get_user_model().objects.create_user("bench", password="bench-password-1")

    def new_event(label: str):
        return services.create_event(
            creator=organiser,
            data={"name": label, "date": "2030-06-01", "game": "tmg", "points": 50},
        )

    # Warm what any first call loads (rulesets, citations, the pool), on a throwaway event.
    warm = new_event("warm-up")
    services.intake_lists(event=warm, pieces=read_intake(generated[0].text).pieces, actor=organiser)

    event = new_event("Grand Tournament")
    options = check_options(event)
    started, cpu = time.perf_counter(), time.process_time()
    check_many([(name, item.text) for name, item in zip(names, generated, strict=True)], options)
    baseline, baseline_cpu = time.perf_counter() - started, time.process_time() - cpu
    print(
        f"baseline, the checking service alone: {args.lists} lists in {baseline:.2f} s "
        f"({args.lists / baseline:,.0f} lists/s; CPU {baseline_cpu:.2f} s)"
    )

    started, cpu = time.perf_counter(), time.process_time()
    read = read_intake(text, filename="lists.txt", is_list_line=services.list_line_test(event))
    cut = time.perf_counter() - started
    outcome = services.intake_lists(event=event, pieces=read.pieces, actor=organiser)
    total, total_cpu = time.perf_counter() - started, time.process_time() - cpu
    print(
        f"bulk intake of {args.lists} mixed real-format lists in one {len(text) / 1e6:.1f} MB "
        f"file: {total:.2f} s ({args.lists / total:,.0f} lists/s), {total / baseline:.1f}× the "
        f"baseline; cutting the file {cut:.2f} s ({cut / total:.0%}), judging and storing "
        f"{total - cut:.2f} s; CPU {total_cpu:.2f} s ({total_cpu / baseline_cpu:.1f}× the "
        f"baseline's; load average {os.getloadavg()[0]:.1f})"
    )

    right_player = sum(
        stored.player.name == name for stored, name in zip(outcome.lists, names, strict=False)
    )
    exact = 0
    for stored, item in zip(outcome.lists, generated, strict=False):
        result = stored.result["en"]
        entries = result.get("entries", [])
        position = {e["ref"]: i for i, e in enumerate(entries)}
        got = reading_of(
            [
                {
                    "id": e["id"],
                    "role": e["role"],
                    "host": position.get(e.get("host")),
                    "commander": e.get("commander", False),
                }
                for e in entries
            ]
        )
        wanted = reading_of(item.expected["entries"])
        exact += result.get("faction") == item.expected["faction"] and got == wanted
    print(
        f"  {len(outcome.lists)} lists stored; {right_player}/{args.lists} to the right player; "
        f"{exact}/{args.lists} read exactly as built; "
        f"legal {sum(s.legal for s in outcome.lists)}"
    )


if __name__ == "__main__":
    main()
