"""Compile only the policies a run uses: the policy bundle, a compile-time argument of kernels.

A :class:`PolicyBundle` lists, for every policy kind, the registry ids of the policies that the
seats of a run use. Its numba type carries those ids and nothing else, so a kernel typed for a
bundle contains the code of exactly those policies: every *hook* (a decision point, such as
"which card to play") is a stub declared with :func:`policy_hook`, and a call to it compiles to
an if-chain over the bundle's ids for that kind, calling the policy's kernel directly (no branch
at all when one policy serves every seat). The value itself is empty; it costs nothing at run
time. Each distinct bundle is its own specialisation in numba's on-disk cache, keyed by the ids.

A hook stub's parameters are ``(bundle, policy, *args)``: ``policy`` is the id of the seat's
policy of that kind (from the policy array, ``pp[seat, slot]``) and ``args`` go to the kernel
unchanged. Kernels of one hook share one signature, documented on the stub.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numba.core import cgutils, types
from numba.extending import NativeValue, models, overload, register_model, typeof_impl, unbox

from pinochle_sim.policies.registry import KIND, KINDS, REGISTRY


class PolicyBundle:
    """The policy ids used per kind, in :data:`~.registry.KINDS` order (each sorted, unique)."""

    __slots__ = ("ids",)

    def __init__(self, ids: tuple[tuple[int, ...], ...]) -> None:
        if len(ids) != len(KINDS):
            raise ValueError(f"a bundle lists ids for each of the {len(KINDS)} policy kinds")
        self.ids = tuple(tuple(sorted(set(map(int, k)))) for k in ids)

    @classmethod
    def from_array(cls, pp: np.ndarray) -> PolicyBundle:
        """The bundle of a per-seat policy array ``pp[seat, slot]`` (every row counts)."""
        return cls(tuple(tuple(int(v) for v in pp[:, KIND[k].id_slot]) for k in KINDS))

    def names(self) -> dict[str, list[str]]:
        """Policy names by kind (for messages and tests)."""
        by_id = {k: {info.id: name for name, info in REGISTRY[k].items()} for k in KINDS}
        return {k: [by_id[k][i] for i in ids] for k, ids in zip(KINDS, self.ids, strict=True)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PolicyBundle) and other.ids == self.ids

    def __hash__(self) -> int:
        return hash(self.ids)

    def __repr__(self) -> str:
        return f"PolicyBundle({self.names()})"


class PolicyBundleType(types.Type):
    """numba type of a :class:`PolicyBundle`: the ids are part of the type (and its cache key)."""

    def __init__(self, ids: tuple[tuple[int, ...], ...]) -> None:
        self.ids = ids
        text = ";".join(f"{k}={','.join(map(str, i))}" for k, i in zip(KINDS, ids, strict=True))
        super().__init__(name=f"PolicyBundle({text})")

    def ids_of(self, kind: str) -> tuple[int, ...]:
        return self.ids[KINDS.index(kind)]


@typeof_impl.register(PolicyBundle)
def _typeof_bundle(value: PolicyBundle, context: Any) -> PolicyBundleType:
    return PolicyBundleType(value.ids)


@register_model(PolicyBundleType)
class _BundleModel(models.StructModel):
    """No members: a bundle carries no data at run time."""

    def __init__(self, dmm: Any, fe_type: PolicyBundleType) -> None:
        super().__init__(dmm, fe_type, [])


@unbox(PolicyBundleType)
def _unbox_bundle(typ: PolicyBundleType, obj: Any, c: Any) -> NativeValue:
    return NativeValue(cgutils.get_null_value(c.context.get_value_type(typ)))


HOOKS: dict[tuple[str, str], Callable[..., Any]] = {}
"""Every declared hook stub by (kind, hook): where each policy's kernel for it is registered."""


def policy_hook(
    kind: str, hook: str, kernels: Mapping[str, Callable[..., Any]]
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare the stub below as the ``hook`` decision of policy ``kind``, run by ``kernels``
    (policy name -> jitted function): the one place a policy's kernel is registered, for every
    kind and every engine. Every policy the registry lists for ``kind`` must have one.

    Called from a kernel as ``stub(bundle, policy_id, *args)``, it runs the kernel of policy
    ``policy_id`` (one of the bundle's ids for ``kind``) on ``args``.
    """
    if kind not in KIND:
        raise ValueError(f"unknown policy kind {kind!r}")
    if hook not in KIND[kind].hooks:
        raise ValueError(f"policy kind {kind!r} has no hook {hook!r}")
    if set(kernels) != set(REGISTRY[kind]):
        missing = sorted(set(REGISTRY[kind]) - set(kernels))
        unknown = sorted(set(kernels) - set(REGISTRY[kind]))
        raise ValueError(
            f"hook {kind}.{hook}: kernels for every {kind} policy of the registry "
            f"(missing {missing}, not registered {unknown})"
        )

    def declare(stub: Callable[..., Any]) -> Callable[..., Any]:
        params = list(inspect.signature(stub).parameters)
        if params[:2] != ["bundle", "policy"]:
            raise TypeError(f"hook stub {stub.__name__} must start with (bundle, policy, ...)")
        args = ", ".join(params)
        passed = ", ".join(params[2:])

        def kernel_of(policy_id: int) -> Callable[..., Any]:
            name = next(n for n, info in REGISTRY[kind].items() if info.id == policy_id)
            return kernels[name]

        def typer(*arg_types: Any) -> Callable[..., Any] | None:
            bundle = arg_types[0]
            if not isinstance(bundle, PolicyBundleType):
                return None
            ids = bundle.ids_of(kind)
            if not ids:
                raise TypeError(f"the policy bundle lists no {kind} policy")
            scope = {f"k{i}": kernel_of(i) for i in ids}
            lines = [f"def impl({args}):"]
            for i in ids[:-1]:
                lines += [f"    if policy == {i}:", f"        return k{i}({passed})"]
            lines.append(f"    return k{ids[-1]}({passed})")
            exec("\n".join(lines), scope)  # the if-chain over this bundle's policies
            return scope["impl"]

        # numba matches the typing function's parameters with the stub's, by name.
        scope: dict[str, Any] = {"typer": typer}
        exec(f"def typing({args}):\n    return typer({args})", scope)
        overload(stub, prefer_literal=False)(scope["typing"])
        stub.policy_kind = kind
        stub.policy_hook = hook
        stub.kernels = dict(kernels)
        HOOKS[(kind, hook)] = stub
        return stub

    return declare


def policy_flag(kind: str, flag: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare the stub below (``stub(bundle)``) as a compile-time constant: whether any policy
    of ``kind`` in the bundle has the registry flag ``flag`` (``PolicyInfo.flags``)."""

    def declare(stub: Callable[..., Any]) -> Callable[..., Any]:
        @overload(stub)
        def typing(bundle):  # bare parameters: numba matches them with the stub
            if not isinstance(bundle, PolicyBundleType):
                return None
            by_id = {info.id: info for info in REGISTRY[kind].values()}
            value = any(flag in by_id[i].flags for i in bundle.ids_of(kind))
            return (lambda bundle: True) if value else (lambda bundle: False)

        return stub

    return declare


def policy_gate(
    kind: str, flag: str, kernel: Callable[..., Any], otherwise: Callable[..., Any] | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare the stub below (``stub(bundle, *args)``) as a call of ``kernel(*args)`` that is
    compiled only when a policy of ``kind`` in the bundle has the registry flag ``flag``;
    otherwise the call is ``otherwise(*args)`` (a jitted function with the same parameters),
    or does nothing and returns None when ``otherwise`` is None.

    A branch on :func:`policy_flag`'s constant is removed by LLVM, but numba still compiles
    (types, lowers, optimises) every kernel the dead branch calls: the table-keeping code of
    the sampling policy was about a tenth of the partnership engine's first compile for runs
    that never use it. A gate keeps that code out of such runs altogether."""

    def declare(stub: Callable[..., Any]) -> Callable[..., Any]:
        params = list(inspect.signature(stub).parameters)
        if params[:1] != ["bundle"]:
            raise TypeError(f"gate stub {stub.__name__} must start with (bundle, ...)")
        args = ", ".join(params)
        passed = ", ".join(params[1:])

        def typer(*arg_types: Any) -> Callable[..., Any] | None:
            bundle = arg_types[0]
            if not isinstance(bundle, PolicyBundleType):
                return None
            by_id = {info.id: info for info in REGISTRY[kind].values()}
            on = any(flag in by_id[i].flags for i in bundle.ids_of(kind))
            target = kernel if on else otherwise
            body = f"return target({passed})" if target is not None else "return None"
            scope: dict[str, Any] = {"target": target}
            exec(f"def impl({args}):\n    {body}", scope)
            return scope["impl"]

        scope: dict[str, Any] = {"typer": typer}
        exec(f"def typing({args}):\n    return typer({args})", scope)
        overload(stub, prefer_literal=False)(scope["typing"])
        return stub

    return declare
