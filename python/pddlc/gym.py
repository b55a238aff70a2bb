"""A PDDL task as a Gymnasium environment (``pip install gymnasium``; pddlc does not need it
otherwise).

:class:`GymEnv` wraps :class:`pddlc.Env` in Gymnasium's API: ``reset(seed=None, options=None)``
gives ``(observation, info)`` and ``step(action)`` gives ``(observation, reward, terminated,
truncated, info)``. A PDDL task's actions and states are text, so the spaces are Gymnasium's
text spaces: an action is a ``Text`` (``"(unstack a b)"``), an observation a ``Sequence`` of
``Text``, the true atoms sorted. A ground-action index space would not fit: the applicable
actions change with every state, and all ground actions of a task can number in the millions;
``info["applicable"]`` lists the applicable ones when asked for (``applicable_in_info=True``).

>>> env = GymEnv(pathlib.Path("domains/blocksworld/domain.pddl"),
...              pathlib.Path("domains/blocksworld/problem.pddl"))  # doctest: +SKIP
>>> observation, info = env.reset()  # doctest: +SKIP
>>> observation, reward, terminated, truncated, info = env.step("(unstack a b)")  # doctest: +SKIP
"""

from __future__ import annotations

import string
from typing import Any, Dict, Optional, Tuple

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(
        "pddlc.gym needs Gymnasium: pip install gymnasium (pddlc.Env works without it)"
    ) from e

from ._pddlc import Env

__all__ = ["GymEnv"]

#: The longest action or atom text the spaces hold.
MAX_LENGTH = 512


class GymEnv(gymnasium.Env):
    """A classical or numeric PDDL task (``domain`` and ``problem``: text, bytes or paths) as a
    Gymnasium environment. Reward 1.0 on the step that reaches the goal, else 0.0;
    ``terminated`` once the goal holds; ``truncated`` after ``max_steps`` steps (``None``: never).
    An action that cannot be applied, or cannot be read, leaves the state as it is and puts its
    ``Diagnostic`` in ``info["diagnostic"]``: the episode goes on.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        domain: Any,
        problem: Any,
        *,
        max_steps: Optional[int] = None,
        applicable_in_info: bool = False,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError("max_steps is a positive number of steps, or None")
        self.env = Env(domain, problem)
        self.max_steps = max_steps
        self.applicable_in_info = applicable_in_info
        self.render_mode = render_mode
        self._turns = 0
        names = set("".join(self.env.applicable()) + "".join(self.env.atoms))
        charset = frozenset(string.ascii_letters + string.digits + " ()-_.?") | names
        text = spaces.Text(max_length=MAX_LENGTH, min_length=1, charset=charset)
        self.action_space = text
        self.observation_space = spaces.Sequence(text)

    def _info(self, extra: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        info: Dict[str, Any] = dict(extra or {})
        info.setdefault("goal_reached", self.env.done)
        info["unmet_goals"] = self.env.unmet_goals
        if self.applicable_in_info:
            info["applicable"] = self.env.applicable()
        return info

    def _observation(self) -> Tuple[str, ...]:
        return tuple(sorted(self.env.observation))

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Tuple[str, ...], Dict[str, Any]]:
        """Back to the initial state: ``(observation, info)``. The task is deterministic; the
        seed seeds the spaces' sampling only."""
        super().reset(seed=seed)
        self.env.reset()
        self._turns = 0
        return self._observation(), self._info()

    def step(self, action: str) -> Tuple[Tuple[str, ...], float, bool, bool, Dict[str, Any]]:
        """Applies one ground action: ``(observation, reward, terminated, truncated, info)``."""
        _, reward, done, info = self.env.step(str(action))
        # Every action counts towards max_steps, refused ones too: an agent's turns are bounded.
        self._turns += 1
        truncated = self.max_steps is not None and self._turns >= self.max_steps and not done
        return self._observation(), reward, done, truncated, self._info(info)

    def render(self) -> Optional[str]:
        """The state as text under ``render_mode="ansi"``."""
        return self.env.text() if self.render_mode == "ansi" else None
