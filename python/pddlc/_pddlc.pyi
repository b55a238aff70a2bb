"""Type stubs of the extension module `pddlc._pddlc` (the Rust binding)."""

import os
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Literal, Mapping, Optional, Tuple, Union

Text = Union[str, bytes, bytearray, "os.PathLike[str]", "os.PathLike[bytes]"]
Format = Literal["human", "gcc", "val", "json"]

__version__: str
JSON_VERSION: int

class InternalError(RuntimeError):
    """A bug in pddlc (a panic caught at the boundary): please report it with the input."""

class Label:
    """A located part of a diagnostic; the first label is the primary location."""

    @property
    def file(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def offset(self) -> int: ...
    @property
    def length(self) -> int: ...
    @property
    def message(self) -> Optional[str]: ...

class Diagnostic:
    """One problem found in the input, with the fields of the CLI's JSON."""

    @property
    def code(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def severity(self) -> Literal["error", "warning", "advice"]: ...
    @property
    def message(self) -> str: ...
    @property
    def help(self) -> Optional[str]: ...
    @property
    def file(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def end_column(self) -> int: ...
    @property
    def end(self) -> Tuple[int, int]: ...
    @property
    def offset(self) -> int: ...
    @property
    def length(self) -> int: ...
    @property
    def labels(self) -> List[Label]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def __getitem__(self, key: str) -> Any: ...

class Report:
    """The diagnostics found in one or more inputs, and the inputs they point into."""

    @property
    def ok(self) -> bool: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    @property
    def errors(self) -> List[Diagnostic]: ...
    @property
    def warnings(self) -> List[Diagnostic]: ...
    @property
    def note(self) -> Optional[str]: ...
    def render(self, format: Format = "human", *, color: bool = False, width: int = 80) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Domain:
    """A parsed domain."""

    @property
    def kind(self) -> Literal["domain"]: ...
    @property
    def name(self) -> str: ...
    @property
    def requirements(self) -> List[str]: ...
    @property
    def types(self) -> Dict[str, Optional[str]]: ...
    @property
    def constants(self) -> Dict[str, Optional[str]]: ...
    @property
    def predicates(self) -> List[str]: ...
    @property
    def functions(self) -> List[str]: ...
    @property
    def actions(self) -> List[str]: ...
    @property
    def report(self) -> Report: ...
    @property
    def ok(self) -> bool: ...
    def to_dict(self, *, spans: bool = True) -> Dict[str, Any]: ...

class Problem:
    """A parsed problem."""

    @property
    def kind(self) -> Literal["problem"]: ...
    @property
    def name(self) -> str: ...
    @property
    def domain(self) -> Optional[str]: ...
    @property
    def requirements(self) -> List[str]: ...
    @property
    def objects(self) -> Dict[str, Optional[str]]: ...
    @property
    def init_size(self) -> int: ...
    @property
    def goal(self) -> Optional[str]: ...
    @property
    def report(self) -> Report: ...
    @property
    def ok(self) -> bool: ...
    def to_dict(self, *, spans: bool = True) -> Dict[str, Any]: ...

class Scores:
    """One pair's Text2World metrics, or the error that kept it from being scored."""

    @property
    def mode(self) -> Optional[Literal["text2world", "clean"]]: ...
    @property
    def exec(self) -> Optional[float]: ...
    @property
    def sim(self) -> Optional[float]: ...
    @property
    def f1_pred(self) -> Optional[float]: ...
    @property
    def f1_param(self) -> Optional[float]: ...
    @property
    def f1_precond(self) -> Optional[float]: ...
    @property
    def f1_eff(self) -> Optional[float]: ...
    @property
    def raw(self) -> Optional[Dict[str, float]]: ...
    @property
    def codes(self) -> List[str]: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    @property
    def notes(self) -> List[str]: ...
    @property
    def functional(self) -> Optional[Dict[str, Any]]:
        """With `functional=True`, the behavioural comparison as `pddlc score --functional
        --format json` writes it: `verdict` (`equivalent`, `different` or `unknown`), `reason`
        when there is one, `alignment`, `actions`, `counterexamples` and `notes`."""
    @property
    def error(self) -> Optional[str]: ...
    @property
    def ok(self) -> bool: ...
    @property
    def id(self) -> Any: ...
    def render(self, format: Format = "human", *, color: bool = False, width: int = 80) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def __getitem__(self, key: str) -> Any: ...

class Solution:
    """The planner's answer (`pddlc solve`)."""

    @property
    def status(self) -> Optional[Literal["solved", "unsolvable", "unknown"]]: ...
    @property
    def ok(self) -> bool: ...
    @property
    def plan(self) -> Optional[List[str]]: ...
    @property
    def cost(self) -> Optional[int]: ...
    @property
    def reason(self) -> Optional[str]: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    @property
    def report(self) -> Report: ...
    def plan_text(self) -> Optional[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...

class PlanReport:
    """The verdict on a plan."""

    @property
    def valid(self) -> Optional[bool]: ...
    @property
    def ok(self) -> bool: ...
    @property
    def steps(self) -> int: ...
    @property
    def failed_step(self) -> Optional[int]: ...
    @property
    def unsatisfied(self) -> List[str]: ...
    @property
    def unmet_goals(self) -> List[str]: ...
    @property
    def metric(self) -> Optional[float]: ...
    @property
    def failures(self) -> List[Dict[str, Any]]: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    @property
    def report(self) -> Report: ...
    def render(self, format: Format = "human", *, color: bool = False, width: int = 80) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...

class KitchenFailure:
    """One failure of a plan in the kitchen, as Simmer records it."""

    @property
    def step(self) -> int: ...
    @property
    def type(self) -> Literal["syntax", "immediate", "latent"]: ...
    @property
    def action(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def severity(self) -> int: ...
    @property
    def reversible(self) -> bool: ...
    def to_dict(self) -> Dict[str, Any]: ...

class KitchenRun:
    """One plan's run in the kitchen world."""

    @property
    def steps(self) -> int: ...
    @property
    def ok(self) -> bool: ...
    @property
    def failures(self) -> List[KitchenFailure]: ...
    @property
    def counts(self) -> Dict[str, int]: ...
    @property
    def irreversible_actions(self) -> List[Dict[str, Any]]: ...
    @property
    def final_state(self) -> Dict[str, Any]: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    @property
    def report(self) -> Report: ...
    def render(self, format: Format = "human", *, color: bool = False, width: int = 80) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...

class KitchenSolution:
    """One kitchen task solved: compiled, planned, translated to Simmer's format, run strictly."""

    @property
    def task(self) -> str: ...
    @property
    def status(self) -> Literal["solved", "unsolvable", "unknown"]: ...
    @property
    def plan(self) -> Optional[List[str]]: ...
    @property
    def pddl_plan(self) -> Optional[List[str]]: ...
    @property
    def clean(self) -> bool: ...
    @property
    def failures(self) -> List[KitchenFailure]: ...
    @property
    def reason(self) -> Optional[str]: ...
    @property
    def statistics(self) -> Dict[str, Any]: ...
    def to_dict(self) -> Dict[str, Any]: ...

def parse(text: Text) -> Union[Domain, Problem, Report]:
    """Parse a domain or problem; a `Report` when no tree could be built."""

def format(text: Text, *, width: int = 80) -> Union[str, Report]:
    """Canonical PDDL text; the `Report` instead when the text has errors."""

def check(
    domain: Text,
    problem: Optional[Text] = None,
    profile: Literal["pddl", "tarski"] = "pddl",
    extract: bool = False,
) -> Report:
    """Check a domain, or a problem against its domain."""

def bddl_check(
    problem: Text, domain: Optional[Text] = None, hierarchy: Optional[str] = None
) -> Report:
    """Check a BDDL problem (or domain) as `pddlc check` checks a `.bddl` file."""

def bddl_format(text: Text, *, width: int = 80) -> Union[str, Report]:
    """Canonical BDDL text; the `Report` instead when the text has syntax errors."""

def bddl_compare(
    gold: Optional[str],
    predicted: str,
    *,
    mode: Literal["default", "compat"] = "default",
    match: Optional[Union[str, Callable[[str, str], Union[bool, float]]]] = None,
    threshold: float = 0.8,
) -> Dict[str, Any]:
    """ActPlan-1K's LCS plan metric, with a built-in or a callable step relation."""

def bddl_parse(text: Text) -> Tuple[Optional[Dict[str, Any]], Report]:
    """The BDDL tree as dicts and the parse's report."""

def worldmodel_make(
    domain: Text,
    problem: Text,
    plan: Optional[Text],
    seed: int,
    fractions: List[float],
    proposals: bool,
    search_time: float,
) -> Union[str, Report]:
    """The items file's text (JSON lines), or the Report that says why none were made."""

def worldmodel_score(
    items: str,
    predictions: str,
    tasks: List[Tuple[str, Text, Text]],
    top_k: List[int],
    bootstrap: int,
    seed: int,
) -> Tuple[str, Report]:
    """The scores' JSON document and the items' and predictions' report."""

class BddlGoal:
    """A BDDL problem's goal compiled once, evaluated on states given as atoms."""

    def __init__(
        self,
        problem: Text,
        *,
        pairs: Literal["reference", "matching"] = "reference",
        forn: Literal["exactly", "at-least"] = "exactly",
    ) -> None: ...
    @property
    def ok(self) -> bool:
        """Whether the goal can be evaluated (bddl loads it)."""
    @property
    def report(self) -> Report:
        """The problem's parse and the goal's compilation diagnostics."""
    def evaluate(self, atoms: List[str]) -> Dict[str, Any]:
        """`{"satisfied": bool, "conjuncts": [bool, ...]}` for the state of exactly `atoms`."""

def score(
    gold: Text,
    pred: Text,
    mode: Literal["text2world", "clean"] = "clean",
    response: bool = False,
    *,
    functional: bool = False,
    counterexamples: Optional[Union[str, "os.PathLike[str]"]] = None,
    force: bool = False,
    time_limit: Optional[float] = None,
    no_sample: bool = False,
) -> Scores:
    """Text2World's six metrics of one (gold, prediction) pair; with `functional=True` also
    the action-by-action comparison of behaviour (`Scores.functional`), its counterexample
    files written into `counterexamples` (an existing file raises `FileExistsError` unless
    `force=True`), within `time_limit` seconds of wall time; `no_sample=True` leaves out the
    sampled applicability."""

def score_many(
    pairs: Iterable[Union[Tuple[Text, Text], Mapping[str, Any]]],
    mode: Literal["text2world", "clean"] = "clean",
    response: bool = False,
    threads: Optional[int] = None,
    *,
    functional: bool = False,
    time_limit: Optional[float] = None,
    no_sample: bool = False,
) -> List[Scores]:
    """Score many pairs in parallel; one `Scores` per input, in order. `functional`,
    `time_limit` (per pair) and `no_sample` are as for `score`."""

def validate(
    domain: Text,
    problem: Text,
    plan: Text,
    keep_going: bool = False,
    tolerance: float = 0.01,
) -> PlanReport:
    """Validate a plan against a domain and problem."""

def applicable(
    domain: Text, problem: Text, prefix: Optional[Text] = None
) -> Union[List[str], PlanReport]:
    """Ground actions applicable after a plan prefix; the `PlanReport` when it fails."""

def solve(
    domain: Text,
    problem: Text,
    *,
    time_limit: Optional[float] = None,
    memory_limit: Optional[int] = None,
    optimal: bool = False,
    from_: Optional[Text] = None,
) -> Solution:
    """Find a plan with the built-in planner, or prove there is none (`pddlc solve`)."""

def kitchen_run(
    env: Optional[Text] = None,
    plan: Optional[Text] = None,
    mode: Literal["simmer", "strict"] = "simmer",
    task: Optional[str] = None,
) -> Union[KitchenRun, Report]: ...
def kitchen_describe(env: Optional[Text] = None, task: Optional[str] = None) -> Union[str, Report]: ...
def kitchen_compile(
    env: Optional[Text] = None,
    goal: Optional[Text] = None,
    flavour: Literal["audit", "planning"] = "audit",
    name: Optional[str] = None,
    plan: Optional[Text] = None,
    task: Optional[str] = None,
) -> Union[Tuple[str, str], Report]: ...
def kitchen_solve(
    task: Optional[str] = None,
    env: Optional[Text] = None,
    goal: Optional[Text] = None,
    time_limit: float = 60.0,
) -> Union[KitchenSolution, Report]: ...
def kitchen_tasks() -> List[str]: ...
def kitchen_eval(
    runs: Iterable[Union[str, "os.PathLike[str]", Tuple[Union[str, "os.PathLike[str]"], str]]],
    mode: Literal["simmer", "strict"] = "simmer",
    bootstrap: int = 10000,
    seed: int = 42,
) -> Dict[str, Any]: ...

class PlancraftEnv:
    """One Plancraft episode stepped by an agent, as Plancraft's evaluator runs messages."""

    def __init__(
        self,
        example: Any,
        id: Optional[str] = None,
        max_steps: int = 30,
        handlers: Optional[List[str]] = None,
    ) -> None: ...
    def reset(self) -> str: ...
    @property
    def observation(self) -> str: ...
    @property
    def inventory(self) -> Dict[str, Dict[str, Any]]: ...
    @property
    def done(self) -> bool: ...
    @property
    def steps(self) -> int: ...
    def step(self, message: str) -> Tuple[str, float, bool, Dict[str, Any]]: ...

class TaskError(ValueError):
    """The domain and problem cannot be used: ``args[1]`` (and ``report``) is the Report."""

    report: Report

class EnvState:
    """A state saved by ``Env.snapshot()``, for ``Env.restore()`` of the same task."""

class Env:
    """A classical or numeric PDDL task as an environment, with the validator's semantics."""

    def __init__(self, domain: Text, problem: Text) -> None: ...
    @staticmethod
    def from_files(domain: Union[str, "os.PathLike[str]"], problem: Union[str, "os.PathLike[str]"]) -> "Env": ...
    def reset(self) -> FrozenSet[str]: ...
    def step(self, action: str) -> Tuple[FrozenSet[str], float, bool, Dict[str, Any]]:
        """``(observation, reward, done, info)``; a refused action leaves the state and puts
        its ``Diagnostic`` in ``info["diagnostic"]``."""
    def applicable(self) -> List[str]: ...
    @property
    def observation(self) -> FrozenSet[str]: ...
    @property
    def atoms(self) -> List[str]: ...
    @property
    def derived(self) -> List[str]: ...
    @property
    def fluents(self) -> Dict[str, float]: ...
    @property
    def done(self) -> bool: ...
    @property
    def unmet_goals(self) -> List[str]: ...
    @property
    def steps(self) -> int: ...
    def text(self) -> str: ...
    def snapshot(self) -> EnvState: ...
    def restore(self, state: EnvState) -> None: ...
    def clone(self) -> "Env": ...
    def __copy__(self) -> "Env": ...

def plancraft_run(
    example: Any,
    actions: Any,
    id: Optional[str] = None,
    max_steps: int = 30,
    handlers: Optional[List[str]] = None,
) -> Dict[str, Any]: ...
def plancraft_solve(example: Any, id: Optional[str] = None, max_states: int = 200000) -> Dict[str, Any]: ...
def plancraft_compile(example: Any, id: Optional[str] = None, encoding: str = "counts") -> Tuple[str, str]: ...
def plancraft_from_pddl_plan(
    example: Any, plan: str, id: Optional[str] = None, encoding: str = "counts"
) -> Dict[str, Any]: ...
def plancraft_eval(
    runs: Any,
    examples: Any,
    oracle: Any = None,
    bootstrap: int = 10000,
    seed: int = 42,
    oracle_from_solve: bool = False,
) -> Dict[str, Any]: ...
