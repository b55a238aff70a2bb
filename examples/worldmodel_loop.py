"""A scripted "world model" evaluated end to end with pddlc (docs/worldmodel.md, "A worked
example"): items made from a task, the model's answers written the way an LLM writes them, and
the scores. Run it from the repository's root: ``python examples/worldmodel_loop.py``.

The model stands in for an LLM. It imagines by stepping its own copy of the task, with two
habits of real models: it forgets the last atom an action deletes, and it calls a plan valid as
soon as every step can be taken, without checking the goal. Its plans come from a greedy walk
that takes the action leaving the fewest goals unmet.
"""

import pathlib

import pddlc
from pddlc import worldmodel

ROOT = pathlib.Path(__file__).resolve().parent.parent


class ScriptedModel:
    """Answers each kind of item as text, from its own copy of the task."""

    def __init__(self, domain, problem):
        self.env = pddlc.Env(domain, problem)

    def _go_to(self, prefix):
        self.env.reset()
        for action in prefix:
            self.env.step(action)

    def next_state(self, item):
        self._go_to(item["prefix"])
        info = self.env.step(item["action"])[3]
        deleted = info["deleted"][:-1]  # forgets the last deletion
        return {"answer": "Added: " + " ".join(info["added"]) + "\nDeleted: " + " ".join(deleted)}

    def verify(self, item):
        self._go_to(item["prefix"])
        for n, action in enumerate(item["actions"], 1):
            info = self.env.step(action)[3]
            if not info["applied"]:
                return {"verdict": f"No: step {n} cannot be taken ({info['diagnostic'].code})."}
        return {"verdict": "Yes, every step can be taken."}  # never checks the goal

    def propose(self, item):
        self._go_to(item["prefix"])
        ranked = sorted(self.env.applicable(), key=self._unmet_after)
        return {"actions": "\n".join(f"{n}. {a}" for n, a in enumerate(ranked[:5], 1))}

    def _unmet_after(self, action):
        saved = self.env.snapshot()
        self.env.step(action)
        unmet = len(self.env.unmet_goals)
        self.env.restore(saved)
        return unmet

    def plan(self, item, steps=30):
        """The agent loop: a greedy walk through the environment, never back to a state."""
        self._go_to(item["prefix"])
        plan, seen = [], {self.env.observation}
        while not self.env.done and len(plan) < steps:
            fresh = []
            for action in self.env.applicable():
                saved = self.env.snapshot()
                observation, _, _, info = self.env.step(action)
                if info["applied"] and observation not in seen:
                    fresh.append((len(self.env.unmet_goals), action))
                self.env.restore(saved)
            if not fresh:
                break
            action = min(fresh)[1]
            observation = self.env.step(action)[0]
            seen.add(observation)
            plan.append(action)
        return {"plan": "Here is my plan:\n```lisp\n" + "\n".join(plan) + "\n```"}

    def answer(self, item):
        kind = item["kind"]
        answer = {
            "next_state": self.next_state,
            "verification": self.verify,
            "proposal": self.propose,
            "planning": self.plan,
        }[kind](item)
        return {"id": item["id"], **answer}


def evaluate(name, domain, problem, **make_options):
    items = worldmodel.make(domain, problem, **make_options)
    task = items[0]["task"]
    model = ScriptedModel(domain, problem)
    predictions = [model.answer(item) for item in items if item["kind"] != "task"]
    scores = worldmodel.score(items, predictions, tasks={task: (domain, problem)}, seed=1)
    o = scores["overall"]
    value = lambda e: "-" if e["value"] is None else f"{e['value']:.2f}"  # noqa: E731
    kinds = ("next_state", "verification", "proposal", "planning")
    unreadable = sum(o[kind]["unreadable"] for kind in kinds)
    print(f"{name} ({task}): {len(predictions)} items, {unreadable} unreadable")
    print(f"  next state    exact {value(o['next_state']['exact'])}, atom F1 {value(o['next_state']['atom_f1'])}")
    v = o["verification"]
    print(
        f"  verification  accuracy {value(v['accuracy'])}, false positive rate"
        f" {value(v['false_positive_rate'])}, false negative rate {value(v['false_negative_rate'])}"
    )
    for k in o["proposal"]["top_k"]:
        if k["reference"]["value"] is not None:
            print(
                f"  proposal      top-{k['k']}: reference {value(k['reference'])}, on an optimal plan"
                f" {value(k['on_optimal_plan'])}, keeps the goal reachable {value(k['keeps_goal_reachable'])}"
            )
    print(f"  planning      success {value(o['planning']['success'])}")
    return scores


def main():
    blocks = ROOT / "domains" / "blocksworld"
    evaluate("blocksworld", blocks / "domain.pddl", blocks / "problem.pddl")
    # A kitchen task compiled to PDDL (its planning flavour). Proposal items take an optimal
    # search from every successor of every state on the plan: too many for a kitchen task; two
    # fractions keep the model's walks (a kitchen step derives 114 predicates) short.
    domain, problem = pddlc.kitchen.compile(task="001", flavour="planning")
    evaluate("kitchen", domain, problem, proposals=False, fractions=(0.25, 0.5))


if __name__ == "__main__":
    main()
