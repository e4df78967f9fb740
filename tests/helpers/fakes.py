"""A scripted chat model for wiring and parsing tests only (never the demo or the default).

Built on langchain_core's fake-model base so it goes through LangChain's real invoke path; the
reply is chosen from the prompt's content, so concurrent members get the right reply in any order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import SimpleChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

Script = Callable[[list[BaseMessage]], str]


def step_of_text(user: str, n_messages: int) -> str:
    """Which strategy step a prompt belongs to, read from its first user message."""
    if n_messages > 2:
        return "repair"
    # the instructions' first line (the jurors' prompts put the sample's data first)
    first = next((ln for ln in user.splitlines() if ln.startswith(("Task:", "Assign", "You will be given"))), "")
    if first.startswith("Assign a correctness score"):
        return "vanilla"
    if first.startswith("You will be given"):
        return "ice_ref" if "[BEGIN REFERENCE" in user else "ice"
    if first.startswith("Task: re-check"):
        return "rethink"
    if "equivalent" in first or "same information" in first:
        return "equivalence"
    if first.startswith("Task: explain what makes"):
        return "analyze"
    if "by checking whether it" in first:
        return "assess_properties"
    if first.startswith("Task: write tests again"):
        return "repair_tests"
    if first.startswith("Task: the tests above") and "files they never create" in first:
        return "test_files"
    if first.startswith("Task: write tests") and "from a wrong version" in first:
        return "sharpen_tests"
    if first.startswith("Task: write tests"):
        return "write_tests"
    if first.startswith("Task: write inputs"):
        return "write_inputs"
    if first.startswith("Task: predict"):
        return "predict"
    if "[BEGIN REFERENCE" in user or "[BEGIN DEVELOPER PATCH]" in user:
        return "direct_ref"
    return "direct"


def step_of(messages: list[BaseMessage]) -> str:
    return step_of_text(str(messages[1].content), len(messages))


GOOD_REPLIES = {
    "direct": "Reasons:\n- implements the requirement\n- handles the edge case\nScore: 80",
    "direct_ref": "Reasons:\n- matches the reference\nScore: 70",
    "rethink": "Checks:\n- matches the reference: TRUE\nScore: 75",
    "equivalence": "Reasons:\n- same behaviour\nScore: 90",
    "analyze": "Properties:\n- returns the sum\n- handles negatives",
    "assess_properties": "Checks:\n- returns the sum: YES\n- handles negatives: YES\nScore: 100",
    "write_tests": "```python\nassert add(1, 2) == 3\nassert add(-1, 1) == 0\n```",
    "sharpen_tests": "```python\nassert add(0, 0) == 0\n```",
    "repair_tests": "```python\nassert add(2, 2) == 4\n```",
    "test_files": "numbers.txt\n```\n1\n2\n```",
    "write_inputs": "```\n2 3\n```\n\n```\n-1 1\n```",
    "predict": "Checks:\n- assert add(1, 2) == 3: PASS\n- assert add(-1, 1) == 0: FAIL\nScore: 100",
    "repair": "Score: 42",
    "vanilla": "Score: 60",
    "ice": "Functional Correctness: 3",
    "ice_ref": "4",
}


def good_script(messages: list[BaseMessage]) -> str:
    return GOOD_REPLIES[step_of(messages)]


class ScriptedChatModel(SimpleChatModel):
    script: Any
    calls: int = 0
    delay: float = 0.0
    fail_times: int = 0  # raise a transient-looking error this many times first
    failure: Any = None  # what those failures raise: a function making the exception (ConnectionError's)

    @property
    def _llm_type(self) -> str:
        return "scripted-fake"

    def _call(self, messages: list[BaseMessage], stop: list[str] | None = None,
              run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> str:
        return str(self.script(messages))

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        self.calls += 1
        if self.fail_times > 0:
            self.fail_times -= 1
            raise self.failure() if self.failure else ConnectionError("scripted transient failure")
        text = self._call(messages, stop, run_manager, **kwargs)
        msg = AIMessage(content=text, usage_metadata={
            "input_tokens": sum(len(str(m.content).split()) for m in messages),
            "output_tokens": len(text.split()), "total_tokens": 0},
            response_metadata={"finish_reason": "stop"})
        return ChatResult(generations=[ChatGeneration(message=msg)])

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: Any = None, **kwargs: Any) -> ChatResult:
        if self.delay:
            await asyncio.sleep(self.delay)
        return self._generate(messages, stop, None, **kwargs)
