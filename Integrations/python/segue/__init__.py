"""Segue's animators from Python: libsegue through ctypes, no compile step.

    import segue

    with segue.Player(plugins=["/path/to/plugins"]) as player:
        grid = segue.View("grid", (0, 0, 390, 844), elements={"photo": (20, 120, 160, 120)})
        detail = segue.View("detail", (0, 0, 390, 844), elements={"photo": (0, 0, 390, 300)})
        with player.begin(grid, detail, bounds=(390, 844)) as transition:
            print(transition.plan.animator, transition.plan.duration)
            for layer in transition.sample(0.1):
                print(layer.frame, layer.alpha)

A player chooses the animator as `segue` does (the name given, else the
config's rules, else the built-in default), runs plugins in sandboxed worker
processes, and never lets one block a frame: a sample answers within the
bound. Everything a plugin or the config gets wrong arrives as a
`SegueError` carrying libsegue's message, or as an event. Thread rules are
libsegue's (segue/embed.h): one player from one thread, samples from any
(one thread at a time for each transition: its sampler's rule).
"""
import ctypes as C
import ctypes.util
import enum
import json
import os
import threading
import warnings
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Type, Union

from . import _abi

__all__ = ["SegueError", "InvalidArgument", "NotFound", "ConfigError", "WrongThread", "Ended", "BufferTooSmall",
           "SystemFailure", "LibraryError", "Status", "TransitionKind", "LayerKind", "EventKind", "LogLevel",
           "View", "Parameter", "Animator", "Plan", "Layer", "LayerState", "DrawnLayer", "Report", "Event", "Player",
           "Transition", "library", "api_version", "page_back", "mesh_light", "page_shading_glsl", "edge_pan_finishes", "OK", "LATE", "DEFAULT_TOOK_OVER", "CLAMPED"]


class Status(enum.IntEnum):
    """segue_status_t: 0 is success, positive values successes with something to know, negative
    values errors (each raised as its own SegueError subclass). Its str() is the number, as before."""
    OK = 0
    LATE = 1
    DEFAULT_TOOK_OVER = 2
    CLAMPED = 3
    E_INVALID_ARGUMENT = -1
    E_NOT_FOUND = -2
    E_CONFIG = -3
    E_WRONG_THREAD = -4
    E_ENDED = -5
    E_BUFFER_TOO_SMALL = -6
    E_SYSTEM = -7

    def __str__(self) -> str:
        return str(int(self))


#: The statuses a sample answers, by their old names (segue.OK is Status.OK).
OK, LATE, DEFAULT_TOOK_OVER, CLAMPED = Status.OK, Status.LATE, Status.DEFAULT_TOOK_OVER, Status.CLAMPED


def _status(value: int) -> Union[Status, int]:
    """A segue_status_t as a Status; a value this package does not know stays a number."""
    try:
        return Status(value)
    except ValueError:
        return value


class _Named(str, enum.Enum):
    """An enumeration whose members are their names in configs and in `segue`'s output: each equals
    (and hashes as) that string, and str() and format() give it, so code that compared or printed
    the strings this package returned before keeps working."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class TransitionKind(_Named):
    """segue_transition_kind_t, by its name in configs."""
    SWITCH = "switch"
    APPEAR = "appear"
    DISAPPEAR = "disappear"


class LayerKind(_Named):
    """What a plan's layer shows: a view ("from", "to"), or a copy of an element of one side."""
    FROM = "from"
    TO = "to"
    FROM_SNAPSHOT = "from-snapshot"
    TO_SNAPSHOT = "to-snapshot"


class EventKind(_Named):
    """segue_event_kind_t: what an event is about."""
    LOG = "log"
    RELOADED = "reloaded"
    CONFIG_ERROR = "config-error"
    FELL_BACK = "fell-back"


class LogLevel(enum.IntEnum):
    """segue_log_level_t (segue/host.h): how serious an event is. Its str() is the number, as before."""
    DEBUG = 0
    INFO = 1
    WARNING = 2
    ERROR = 3

    def __str__(self) -> str:
        return str(int(self))


def _level(value: int) -> LogLevel:
    """A segue_log_level_t; one this package does not know is INFO, as segue/host.h says."""
    try:
        return LogLevel(value)
    except ValueError:
        return LogLevel.INFO


# segue_player_options_t.flags.
_ONLY_GIVEN_FOLDERS = 1
_NO_SPIN = 8
_WATCH = 2
_STANDARD_CONFIG = 0x10
_ISOLATION = {"process": 0, "none": 1, None: 2}
_SANDBOX = {None: 0, "strict": 1, "off": 2}
_PARAMETER_TYPES = {0: "number", 1: "integer", 2: "boolean", 3: "choice", 4: "curve"}
#: The named curves, by their segue_curve_t (segue/host.h).
_CURVES = ("linear", "easeIn", "easeOut", "easeInOut", "default")
#: The built-in default's own curve value, below the named curves: it follows its spring.
_SPRING = -1.0
#: The C enumerations' values, in their order.
_EVENT_KINDS = dict(enumerate(EventKind))
_TRANSITION_KINDS: Dict[str, int] = {kind: value for value, kind in enumerate(TransitionKind)}
_LAYER_KINDS = dict(enumerate(LayerKind))

Rect = Tuple[float, float, float, float]


class SegueError(Exception):
    """A call libsegue refused or could not make: `call` names the function, `status` is its
    segue_status_t (a Status), and the message is libsegue's (which names the call and what it
    expected). Each kind of failure raises its own subclass: InvalidArgument, NotFound,
    ConfigError, WrongThread, Ended, BufferTooSmall, SystemFailure; LibraryError when libsegue
    cannot be loaded."""

    def __init__(self, call: str, status: int, message: str):
        super().__init__(message)
        self.call, self.status, self.message = call, _status(status), message


class InvalidArgument(SegueError, ValueError):
    """SEGUE_E_INVALID_ARGUMENT: an argument libsegue (or this package, before calling it) refuses.
    Also a ValueError."""


class NotFound(SegueError):
    """SEGUE_E_NOT_FOUND: no animator (or layer) of that name or index."""


class ConfigError(SegueError):
    """SEGUE_E_CONFIG: the config file could not be read or is invalid (the message says where)."""


class WrongThread(SegueError):
    """SEGUE_E_WRONG_THREAD: a player's call from a thread other than the one that made it."""


class Ended(SegueError):
    """SEGUE_E_ENDED: the transition is finished, closed, or freed with its player (or the player is closed)."""


class BufferTooSmall(SegueError):
    """SEGUE_E_BUFFER_TOO_SMALL: fewer layer states or smaller meshes than the plan needs."""


class SystemFailure(SegueError):
    """SEGUE_E_SYSTEM: the system refused libsegue something it needed (a thread, a descriptor)."""


#: Each error status's exception; an error status this package does not know raises SegueError.
_ERRORS = {Status.E_INVALID_ARGUMENT: InvalidArgument, Status.E_NOT_FOUND: NotFound, Status.E_CONFIG: ConfigError,
           Status.E_WRONG_THREAD: WrongThread, Status.E_ENDED: Ended, Status.E_BUFFER_TOO_SMALL: BufferTooSmall,
           Status.E_SYSTEM: SystemFailure}


def _error(call: str, status: int, message: str) -> SegueError:
    """The exception for a refusal: the subclass of SegueError its status names."""
    known = _status(status)
    kind: Type[SegueError] = _ERRORS.get(known, SegueError) if isinstance(known, Status) else SegueError
    return kind(call, status, message)


#: libsegue by its SONAME: the API major this package speaks.
_SONAME = "libsegue.so.1"
#: The oldest libsegue this package works with: its major (the SONAME's) and minor.
_MAJOR, _MINOR = 1, 4
_library: Optional[C.CDLL] = None


class LibraryError(SegueError):
    """libsegue could not be loaded (`call` is "dlopen", `status` SEGUE_E_NOT_FOUND). `tried` holds
    each place looked at, in order, with what was found there; the message lists them and says to
    set SEGUE_LIBRARY."""

    def __init__(self, tried: Sequence[Tuple[str, str]]):
        places = "".join(f"\n  {place}: {found}" for place, found in tried)
        super().__init__("dlopen", Status.E_NOT_FOUND,
                         f"{_SONAME} could not be loaded. Looked, in order, at:{places}\n"
                         f"Install it with Scripts/install.sh, or set SEGUE_LIBRARY=/path/to/{_SONAME}.")
        self.tried = tuple(tried)


def _open(name: str) -> C.CDLL:
    """libsegue at `name` (a path, or a name for the system's loader), bound; OSError saying why not."""
    lib = C.CDLL(name)
    if not hasattr(lib, "segue_api_version"):
        raise OSError(f"{name} has no segue_api_version: it is not libsegue")
    lib.segue_api_version.restype = C.c_uint32
    packed = lib.segue_api_version()
    major, minor = packed >> 16, packed & 0xFFFF
    if major != _MAJOR or minor < _MINOR:
        raise OSError(f"{name} is libsegue {major}.{minor}; this package needs libsegue {_MAJOR}.{_MINOR} "
                      f"or a later {_MAJOR}.x (the sampler and the host helpers came in {_MAJOR}.{_MINOR})")
    return _abi.bind(lib)


def _places() -> Iterator[Tuple[str, str]]:
    """Where libsegue is looked for when nothing names it, in order: a name to load, and the place in words."""
    beside = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", _SONAME))
    yield beside, f"{beside} (beside the package, as Scripts/install.sh lays it out)"
    yield _SONAME, f"{_SONAME} (the system's loader: LD_LIBRARY_PATH, ldconfig's cache, /lib, /usr/lib)"
    found = ctypes.util.find_library("segue")  # runs ldconfig and the linker: asked only when needed
    if found and found != _SONAME:
        yield found, f"{found} (ctypes.util.find_library)"
    for prefix in (os.path.expanduser("~/.local"), "/usr/local"):
        path = os.path.join(prefix, "lib", _SONAME)
        yield path, path


def library(path: Optional[str] = None) -> C.CDLL:
    """libsegue, loaded once. `path` when given, else $SEGUE_LIBRARY when set (either is the only
    place looked at); else, in order: the one installed beside this package (Scripts/install.sh puts
    the package in PREFIX/lib/segue/python and libsegue in PREFIX/lib), the system's loader's
    libsegue.so.1 (LD_LIBRARY_PATH, ldconfig's cache, /lib, /usr/lib; then ctypes.util.find_library),
    and the standard prefixes' ~/.local/lib and /usr/local/lib.

    Raises LibraryError (a SegueError) listing where it looked, with what it found there."""
    global _library
    if _library is not None and path is None:
        return _library
    named = path or os.environ.get("SEGUE_LIBRARY")
    if named:
        try:
            _library = _open(named)
        except OSError as e:
            raise LibraryError([(named if path else f"SEGUE_LIBRARY={named}", str(e))]) from None
        return _library
    tried = [("SEGUE_LIBRARY", "not set")]
    for name, place in _places():
        if os.path.isabs(name) and not os.path.exists(name):
            tried.append((place, "no such file"))
            continue
        try:
            _library = _open(name)
            return _library
        except OSError as e:
            tried.append((place, str(e)))
    raise LibraryError(tried)


def api_version() -> Tuple[int, int]:
    """libsegue's API version, (major, minor)."""
    packed = library().segue_api_version()
    return packed >> 16, packed & 0xFFFF


def _text(value: Optional[bytes]) -> Optional[str]:
    return None if value is None else value.decode("utf-8", "replace")


def _check(call: str, status: int) -> Union[Status, int]:
    """`status` (a success), or the SegueError subclass it names, with libsegue's words."""
    if status < 0:
        raise _error(call, status, _text(library().segue_error_message()) or f"{call} failed")
    return _status(status)


@dataclass(frozen=True)
class View:
    """One side of a transition: a name (matched against the config's rules), its frame in the
    container's coordinates (a window's own; (0, 0, 0, 0) for the container's bounds), and named
    elements with their frames in container coordinates."""
    name: str
    frame: Rect = (0, 0, 0, 0)
    elements: Dict[str, Rect] = field(default_factory=dict)


@dataclass(frozen=True)
class Parameter:
    """One parameter of an animator, as `segue list --json` writes it: its type ("number",
    "integer", "boolean", "choice" or "curve"); its default as a config (and `begin`'s
    `parameters`) writes it: a number, True or False, or a choice's or a curve's name; `min` and
    `max` for a number or an integer (None otherwise); the names a choice or a curve takes (a
    curve's: the named curves, after "spring" for the built-in default's; a config may name more)."""
    name: str
    explanation: str
    type: str
    default: Union[float, bool, str]
    min: Optional[float] = None
    max: Optional[float] = None
    choices: Tuple[str, ...] = ()

    @property
    def minimum(self) -> Optional[float]:
        """Deprecated: `min`."""
        warnings.warn("Parameter.minimum is deprecated: use Parameter.min (the name segue list --json uses)",
                      DeprecationWarning, stacklevel=2)
        return self.min

    @property
    def maximum(self) -> Optional[float]:
        """Deprecated: `max`."""
        warnings.warn("Parameter.maximum is deprecated: use Parameter.max (the name segue list --json uses)",
                      DeprecationWarning, stacklevel=2)
        return self.max


def _parameter(p: _abi.Param) -> Parameter:
    """A parameter as libsegue lists it (segue_param_t, every value a number), in a config's terms,
    as `segue list --json` writes it."""
    kind = _PARAMETER_TYPES.get(p.type, str(p.type))
    names = tuple(_text(p.choices[k]) or "" for k in range(p.choice_count))
    first = 0  # the value of names[0]
    if kind == "curve":
        spring = p.default_value == _SPRING  # as the tool takes "spring": where it is the default
        names, first = (("spring",) + _CURVES, -1) if spring else (_CURVES, 0)
    value: float = p.default_value
    default: Union[float, bool, str] = value
    if kind == "boolean":
        default = value != 0
    elif kind in ("choice", "curve") and value.is_integer() and 0 <= int(value) - first < len(names):
        default = names[int(value) - first]
    ranged = kind in ("number", "integer")
    return Parameter(_text(p.name) or "", _text(p.explanation) or "", kind, default,
                     p.min_value if ranged else None, p.max_value if ranged else None, names)


@dataclass(frozen=True)
class Animator:
    """An animator the player can play: a plugin's, or the built-in "default" (file None)."""
    name: str
    id: str
    version: str
    description: str
    file: Optional[str]
    parameters: Tuple[Parameter, ...]
    #: The kinds of transition it was written for ("switch", "appear", "disappear"). It plays every
    #: appearance and disappearance, but a switch only when "switch" is among them: the built-in
    #: default plays the others (docs/abi.md, "Kinds of transition").
    kinds: Tuple[TransitionKind, ...] = (TransitionKind.SWITCH,)


@dataclass(frozen=True)
class Layer:
    """A layer the plan asks for: LayerKind "from" or "to" (a view), "from-snapshot" or "to-snapshot"
    (a copy of that side's element `element`), and its mesh divisions (0 for none). A kind this package
    does not know reads "snapshot"."""
    kind: Union[LayerKind, str]
    element: int
    mesh_columns: int
    mesh_rows: int


@dataclass(frozen=True)
class Plan:
    """What will play: the animator, its file, the duration, its layers and the elements it hides, and why."""
    animator: str
    file: Optional[str]
    duration: float
    fell_back: bool
    reason: str
    layers: Tuple[Layer, ...]
    hidden: Tuple[Tuple[str, int], ...]


@dataclass(frozen=True)
class LayerState:
    """One layer at a time t: its frame, its 4 x 4 transform (row-major, as Core Animation's), alpha,
    z, whether it is hidden, and its mesh vertices (x, y, z) when it has one."""
    frame: Rect
    transform: Tuple[float, ...]
    alpha: float
    z: float
    hidden: bool
    mesh: Tuple[Tuple[float, float, float], ...]


@dataclass(frozen=True)
class Event:
    """What a dispatch delivered: "log", "reloaded", "config-error" or "fell-back", with libsegue's words."""
    kind: EventKind
    level: LogLevel
    message: str


@dataclass(frozen=True)
class DrawnLayer:
    """One layer at one moment, as a host draws it (segue_drawn_layer_t): its index in the plan
    (`plan.layers`), what it shows (`request`), where its content rests (container coordinates: the
    view's frame or the element's), its state, whether to draw it (not hidden, alpha above 0, in
    front of the eye; False for a stand-in's layer), whether it has a mesh (draw `state.mesh`), and
    a flat layer's projective map from its content at rest to where it is seen: 9 numbers,
    row-major, (x, y) seen at (X / W, Y / W) with X = map[0] x + map[1] y + map[2], and so on."""
    plan_index: int
    request: Layer
    resting_frame: Rect
    state: LayerState
    visible: bool
    has_mesh: bool
    map: Tuple[float, ...]


@dataclass(frozen=True)
class Report:
    """How a transition ended (segue_transition_report_t): the animator that ran last ("default"
    after a fallback), whether the built-in default ran instead of the chosen animator, whether it
    completed (as `finish` was told), and why, as `segue run` reports it."""
    animator: str
    fell_back: bool
    completed: bool
    reason: str


_SIDES = {0: "from", 1: "to"}


class Player:
    """Plays animators on your views. Use it from one thread; close it (or use `with`) to end its
    workers. `on_event` receives what `dispatch` delivers; without it, `dispatch` returns the events.
    With `standard_config` and no `config`, the player follows the user's config as the desktop's
    hosts do ($XDG_CONFIG_HOME/segue/segue.json, else ~/.config/segue/segue.json): missing or
    broken, the built-in default plays and an event says why; with `watch`, it is followed as it
    appears, changes, breaks and vanishes (dispatch delivers the reloads). A `config` the program
    names is the program's: one that cannot be read raises ConfigError."""

    def __init__(self, plugins: Sequence[str] = (), config: Optional[str] = None, *, only_given_folders: bool = False,
                 isolation: Optional[str] = "process", sandbox: Optional[str] = None, worker: Optional[str] = None,
                 on_event: Optional[Callable[[Event], None]] = None, spin: bool = True, standard_config: bool = False,
                 watch: bool = False):
        if isolation not in _ISOLATION:
            raise InvalidArgument("Player", Status.E_INVALID_ARGUMENT, f"isolation must be 'process', 'none' or None, not {isolation!r}")
        if sandbox not in _SANDBOX:
            raise InvalidArgument("Player", Status.E_INVALID_ARGUMENT, f"sandbox must be 'strict', 'off' or None, not {sandbox!r}")
        lib = library()
        self._events: List[Event] = []
        self._on_event = on_event

        def deliver(_user: Optional[int], event: "C._Pointer[_abi.Event]") -> None:
            e = event.contents
            self._events.append(Event(_EVENT_KINDS.get(e.kind, EventKind.LOG), _level(e.level), _text(e.message) or ""))
        self._callback = _abi.EVENT_FN(deliver)  # kept: libsegue calls it until the player is freed
        self._folders = (C.c_char_p * max(len(plugins), 1))(*[os.fsencode(p) for p in plugins])
        options = _abi.PlayerOptions(struct_size=C.sizeof(_abi.PlayerOptions), plugin_dirs=self._folders,
                                     plugin_dir_count=len(plugins), isolation=_ISOLATION[isolation],
                                     sandbox=_SANDBOX[sandbox],
                                     flags=(_ONLY_GIVEN_FOLDERS if only_given_folders else 0) | (0 if spin else _NO_SPIN)
                                     | (_STANDARD_CONFIG if standard_config else 0) | (_WATCH if watch else 0),
                                     on_event=self._callback)
        if config is not None:
            options.config_path = os.fsencode(config)
        if worker is not None:
            options.worker_path = os.fsencode(worker)
        handle = C.c_void_p()
        _check("segue_player_new", lib.segue_player_new(C.byref(options), C.byref(handle)))
        self._handle: Optional[C.c_void_p] = handle
        # Transitions begun and not closed: segue_player_free frees them with the player.
        self._transitions: "weakref.WeakSet[Transition]" = weakref.WeakSet()

    def __enter__(self) -> "Player":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Finishes every transition not yet closed and ends the player's workers. libsegue frees
        those transitions with the player: from then on they raise SegueError, and their `close()`
        does nothing."""
        if self._handle is not None:
            # A thread sampling one of them finishes its sample first (each waits at most the sample bound):
            # libsegue frees a transition with its player only after every thread has stopped sampling it.
            transitions = list(self._transitions)
            for transition in transitions:
                transition._lock.acquire()
            try:
                for transition in transitions:
                    transition._freed_with_player()
                library().segue_player_free(self._handle)
                self._handle = None
            finally:
                for transition in transitions:
                    transition._lock.release()
            self._transitions.clear()

    def _live(self) -> C.c_void_p:
        if self._handle is None:
            raise Ended("segue_player", Status.E_ENDED, "the player is closed")
        return self._handle

    def fileno(self) -> int:
        """A descriptor that becomes readable when `dispatch` has something to do (for select or an event loop)."""
        return int(library().segue_player_fd(self._live()))

    def dispatch(self) -> List[Event]:
        """Applies reloads and delivers what happened: to `on_event` when given, and returned."""
        self._events = []
        _check("segue_player_dispatch", library().segue_player_dispatch(self._live()))
        events, self._events = self._events, []
        if self._on_event is not None:
            for event in events:
                self._on_event(event)
        return events

    @property
    def animators(self) -> List[Animator]:
        """The animators this player can play, in precedence order, the built-in default last."""
        lib, handle = library(), self._live()
        found = []
        for i in range(lib.segue_player_animator_count(handle)):
            info = _abi.AnimatorInfo(struct_size=C.sizeof(_abi.AnimatorInfo))
            _check("segue_player_animator_info", lib.segue_player_animator_info(handle, i, C.byref(info)))
            parameters = []
            for j in range(info.param_count):
                p = _abi.Param(struct_size=C.sizeof(_abi.Param))
                _check("segue_player_animator_param", lib.segue_player_animator_param(handle, i, j, C.byref(p)))
                parameters.append(_parameter(p))
            found.append(Animator(_text(info.name) or "", _text(info.id) or "", _text(info.version) or "", _text(info.description) or "",
                                  _text(info.file), tuple(parameters),
                                  tuple(k for v, k in enumerate(TransitionKind) if info.kinds & (1 << v))))
        return found

    def begin(self, from_view: Optional[View], to_view: Optional[View], bounds: Tuple[float, float], *,
              animator: Optional[str] = None, parameters: Optional[Dict[str, Any]] = None, going_right: bool = True,
              interactive: bool = False, kind: Union[TransitionKind, str] = TransitionKind.SWITCH) -> "Transition":
        """Begins a transition from `from_view` to `to_view` in a container of `bounds` (width, height),
        played by `animator` (else the config's rules, else the default) with `parameters` (names to
        values, as a config writes them). `kind` is "switch", "appear" (`to_view` opens over
        `from_view`) or "disappear" (`from_view` closes, revealing `to_view`); the view beneath may be
        None. Raises SegueError for a description libsegue refuses."""
        keep: List[object] = []
        if kind not in _TRANSITION_KINDS:
            raise InvalidArgument("begin", Status.E_INVALID_ARGUMENT,
                                  f"kind {str(kind)!r}: expected one of {', '.join(k.value for k in TransitionKind)}")

        def view(v: Optional[View]) -> _abi.View:
            if v is None:
                return _abi.View()
            elements = [_abi.Element(struct_size=C.sizeof(_abi.Element), name=name.encode(), frame=_abi.Rect(*frame))
                        for name, frame in v.elements.items()]
            pointers = (C.POINTER(_abi.Element) * max(len(elements), 1))(*[C.pointer(e) for e in elements])
            name = v.name.encode()
            keep.extend([elements, pointers, name])
            return _abi.View(name=name, frame=_abi.Rect(*v.frame), elements=pointers if elements else None,
                             element_count=len(elements))
        desc = _abi.TransitionDesc(struct_size=C.sizeof(_abi.TransitionDesc), bounds=_abi.Rect(0, 0, *bounds),
                                   from_=view(from_view), to=view(to_view), going_right=going_right, interactive=interactive,
                                   kind=_TRANSITION_KINDS[kind])
        if animator is not None:
            desc.animator = animator.encode()
        if parameters:
            desc.parameters_json = json.dumps(parameters).encode()
        handle = C.c_void_p()
        _check("segue_transition_begin", library().segue_transition_begin(self._live(), C.byref(desc), C.byref(handle)))
        transition = Transition(self, handle)
        self._transitions.add(transition)
        return transition


class Transition:
    """A transition being played: its plan, and its layers at any time t in [0, duration], from any
    thread (one at a time: samples wait for each other). Finish it, then close it (or use `with`:
    it finishes, completed, and closes). Closing its player finishes and frees it too (as
    segue_player_free does): it then raises Ended, and closing it does nothing.

    Its layers come from libsegue's sampler (segue_sampler_t), which follows the built-in
    default's takeover itself: `plan` is the default's from the sample that saw it on."""

    def __init__(self, player: Player, handle: C.c_void_p):
        self._player: Optional[Player] = player
        self._handle: Optional[C.c_void_p] = handle
        self._finished = False
        # Why the handle is gone, once it is: closed here, or freed with the player.
        self._gone = "the transition is closed"
        #: How fresh the last sample's layers are: OK, LATE (held from before), DEFAULT_TOOK_OVER (once: the
        #: default's layers from then on), CLAMPED (t outside [0, duration]).
        self.status: Union[Status, int] = Status.OK
        #: How it ended: set by `finish` (and by leaving `with`), None until then.
        self.report: Optional[Report] = None
        self._lock = threading.Lock()  # a sampler is used by one thread at a time
        self._sampled = False
        self._info = _abi.PlanInfo(struct_size=C.sizeof(_abi.PlanInfo))
        self._read_plan()
        sampler = C.c_void_p()
        _check("segue_sampler_new", library().segue_sampler_new(handle, C.byref(sampler)))
        self._sampler: Optional[C.c_void_p] = sampler

    def _live(self, call: str) -> C.c_void_p:
        """The handle; Ended (SEGUE_E_ENDED) naming `call` once it is freed."""
        if self._handle is None:
            raise Ended(call, Status.E_ENDED, f"{call}: {self._gone}")
        return self._handle

    def _free_sampler(self) -> None:
        """Frees the sampler; the caller holds `_lock`."""
        if self._sampler is not None:
            library().segue_sampler_free(self._sampler)
            self._sampler = None

    def _freed_with_player(self) -> None:
        """Frees the sampler and forgets the handle segue_player_free is about to free (its plan's strings
        with it); the caller holds `_lock`."""
        self._free_sampler()
        self._handle, self._player = None, None
        self._gone = "the transition's player was closed, which finished and freed it"

    def _read_plan(self) -> None:
        _check("segue_transition_plan", library().segue_transition_plan(self._live("segue_transition_plan"), C.byref(self._info)))

    def __enter__(self) -> "Transition":
        return self

    def __exit__(self, *_: object) -> None:
        if self._handle is not None and not self._finished:
            self.finish(True)
        self.close()

    @property
    def plan(self) -> Plan:
        """What plays (the default's plan once a sample said DEFAULT_TOOK_OVER)."""
        self._live("segue_transition_plan")  # its strings are the transition's
        with self._lock:
            info = self._info
            return Plan(_text(info.animator) or "", _text(info.file), info.duration, bool(info.fell_back), _text(info.reason) or "",
                        tuple(_layer(l) for l in info.layers[:info.layer_count]),
                        tuple((_SIDES.get(h.side, "from"), h.element) for h in info.hidden[:info.hidden_count]))

    def _sample(self, call: str, t: float) -> List["DrawnLayer"]:
        """The layers at `t` from the sampler, back to front; `status` set (DEFAULT_TOOK_OVER when the plan
        changed since the last sample, or since begin)."""
        lib = library()
        with self._lock:
            self._live(call)
            sampler = self._sampler
            assert sampler is not None  # freed only with the handle
            count, changed = C.c_uint32(), C.c_bool()
            status = _check(call, lib.segue_sampler_sample(sampler, t, C.byref(count), C.byref(changed)))
            if changed.value:
                fell_back = bool(self._info.fell_back)
                self._read_plan()
                if self._sampled or (self._info.fell_back and not fell_back):
                    status = Status.DEFAULT_TOOK_OVER
            self._sampled = True
            drawn = []
            for i in range(count.value):
                d = _abi.DrawnLayer(struct_size=C.sizeof(_abi.DrawnLayer))
                _check("segue_sampler_layer", lib.segue_sampler_layer(sampler, i, C.byref(d)))
                s = d.state
                vertices = min(lib.segue_layer_mesh_vertex_count(C.byref(d.request)), s.mesh_vertex_count) if d.has_mesh else 0
                state = LayerState((s.frame.x, s.frame.y, s.frame.width, s.frame.height), tuple(s.transform), s.alpha,
                                   s.z_position, bool(s.hidden),
                                   tuple((s.mesh[k].x, s.mesh[k].y, s.mesh[k].z) for k in range(vertices)))
                r = d.resting_frame
                drawn.append(DrawnLayer(d.plan_index, _layer(d.request), (r.x, r.y, r.width, r.height), state,
                                        bool(d.visible), bool(d.has_mesh), tuple(d.map)))
            self.status = status
            return drawn

    def sample(self, t: float) -> List[LayerState]:
        """The layers' states at time `t` (clamped to [0, duration]) in the plan's order (`plan.layers`);
        `status` says how fresh they are (OK, LATE: held from before, DEFAULT_TOOK_OVER, CLAMPED). To draw
        them, `layers(t)` gives them back to front, with where each rests and its map."""
        drawn = self._sample("segue_transition_sample", t)
        return [d.state for d in sorted(drawn, key=lambda d: d.plan_index)]

    def layers(self, t: float) -> List["DrawnLayer"]:
        """The layers at time `t`, back to front, as a host draws them (segue_sampler_layer): what each
        shows, where its content rests, its state, whether to draw it, and a flat layer's map (libsegue
        1.4's sampler). `status` is set as by `sample`."""
        return self._sample("segue_sampler_sample", t)

    def prefetch(self, t: float) -> None:
        """Asks the plugin for the layers at `t` now, on libsegue's thread, and returns at once: a later
        `sample(t)` takes that answer instead of waiting for the plugin (libsegue 1.3)."""
        with self._lock:
            _check("segue_transition_prefetch", library().segue_transition_prefetch(self._live("segue_transition_prefetch"), t))

    def finish(self, completed: bool = True) -> "Report":
        """Ends the transition, once: completed, or cancelled (the from view stays). Returns how it went
        (kept as `report`): the animator that ran last, whether the default ran instead, and why."""
        report = _abi.TransitionReport(struct_size=C.sizeof(_abi.TransitionReport))
        _check("segue_transition_finish",
               library().segue_transition_finish(self._live("segue_transition_finish"), completed, C.byref(report)))
        self._finished = True
        self.report = Report(_text(report.animator) or "", bool(report.fell_back), bool(report.completed),
                             _text(report.reason) or "")
        return self.report

    def close(self) -> None:
        """Frees the transition (finishing it, not completed, if it was not). Nothing happens when it
        is closed already, or when its player was closed (which freed it)."""
        with self._lock:  # after a sample under way on another thread, as segue/embed.h asks
            if self._handle is None:
                return
            self._free_sampler()  # before the transition
            library().segue_transition_free(self._handle)
            self._handle = None
        if self._player is not None:
            self._player._transitions.discard(self)
            self._player = None


def _layer(request: _abi.LayerRequest) -> Layer:
    return Layer(_LAYER_KINDS.get(request.kind, "snapshot"), request.element, request.mesh_columns, request.mesh_rows)


def page_back(rgba: Sequence[float]) -> Tuple[float, float, float, float]:
    """A page's back seen through it (a mesh's triangles turned away from the viewer), as Segue's
    renderer shades it (segue_page_back): `rgba` straight, each in [0, 1]; alpha unchanged."""
    if len(rgba) != 4:
        raise InvalidArgument("segue_page_back", Status.E_INVALID_ARGUMENT,
                              f"segue_page_back: rgba has {len(rgba)} values: expected 4 (red, green, blue, alpha)")
    colour, out = (C.c_float * 4)(*rgba), (C.c_float * 4)()
    library().segue_page_back(colour, out)
    return out[0], out[1], out[2], out[3]


def mesh_light(layer: "DrawnLayer", back: bool = False) -> Tuple[float, ...]:
    """The light on each vertex of a layer's mesh as Segue's renderer lights a curled page
    (segue_mesh_light): a factor for the colour per vertex, row-major as the mesh, 1 facing the
    light down to 0.3; `back` as seen from behind. () for a layer without a mesh."""
    state = layer.state
    if not layer.has_mesh or not state.mesh:
        return ()
    kinds: Dict[str, int] = {kind: value for value, kind in _LAYER_KINDS.items()}
    request = _abi.LayerRequest(kinds.get(layer.request.kind, 0), layer.request.element, layer.request.mesh_columns,
                                layer.request.mesh_rows)
    mesh = (_abi.Vec3 * len(state.mesh))(*[_abi.Vec3(*v) for v in state.mesh])
    c_state = _abi.LayerState(struct_size=C.sizeof(_abi.LayerState), frame=_abi.Rect(*state.frame),
                              transform=(C.c_double * 16)(*state.transform), alpha=state.alpha, z_position=state.z,
                              hidden=state.hidden, mesh=C.cast(mesh, C.POINTER(_abi.Vec3)), mesh_vertex_count=len(state.mesh))
    capacity = (request.mesh_columns + 1) * (request.mesh_rows + 1)
    shades = (C.c_float * capacity)()
    written = library().segue_mesh_light(C.byref(c_state), C.byref(request), back, shades, capacity)
    return tuple(shades[:written])


def page_shading_glsl() -> str:
    """The same shading in GLSL, to put before a fragment shader's main (segue_page_shading_glsl):
    `vec4 segue_page_back(vec4 c)` and `vec4 segue_page_lit(vec4 c, float shade)`."""
    return _text(library().segue_page_shading_glsl()) or ""


def edge_pan_finishes(translation: float, velocity: float, width: float) -> bool:
    """Whether releasing a transition driven by a pan from the container's edge finishes it (else it
    goes back), by Segue's one rule (segue_edge_pan_finishes): a flick faster than a width a second
    decides by its direction; slower, past half way finishes. `translation` and `velocity` (per
    second) are positive towards finishing, in `width`'s unit."""
    return bool(library().segue_edge_pan_finishes(translation, velocity, width))
