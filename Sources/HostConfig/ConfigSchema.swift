import Timing

extension SegueConfig {
    /// The JSON Schema (draft 2020-12) of config files, for editors: what
    /// `segue schema` prints, and `docs/segue-config.schema.json` holds (a test
    /// keeps the two, and the parser's keys, in step). A config the schema
    /// accepts can still name an animator or parameter that does not exist:
    /// `segue check` knows the plugins; the schema does not.
    public static let jsonSchema = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://github.com/segue/segue/docs/segue-config.schema.json",
  "title": "Segue config",
  "description": "A Segue config file: where plugins are, which animator runs for which transition, the children, and the script segue run plays. Printed by 'segue schema'.",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "plugins": {
      "description": "Plugin folders, searched after --plugins and SEGUE_PLUGIN_PATH; relative to the config file; a leading ~, $HOME or ${HOME} is the home folder.",
      "type": "array",
      "items": {"type": "string", "minLength": 1}
    },
    "isolation": {
      "description": "Where plugin code runs: in worker processes (the default) or in segue's own process (trusted plugins only).",
      "enum": ["process", "none"]
    },
    "sandbox": {
      "description": "Whether worker processes confine plugin code (strict, the default: no writes, no network, no programs, no signals or tracing outside the worker) or not (off: trusted plugins only).",
      "enum": ["strict", "off"]
    },
    "limits": {
      "description": "What worker processes may use.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "memory": {
          "description": "The address space a worker may use: a size like \"512MiB\" or \"2GiB\" (K, M, G are powers of 1024), or a number of bytes; at least 256 MiB; 1 GiB by default.",
          "oneOf": [
            {"type": "string", "pattern": "^ *[0-9]+(\\.[0-9]+)? *([KMG](iB)?|B)? *$"},
            {"type": "integer", "minimum": 268435456}
          ]
        },
        "threads": {
          "description": "The threads a worker may have at once, its own included; 64 by default. The next one fails and the attempt is named.",
          "type": "integer", "minimum": 8, "maximum": 4096
        },
        "totalMemory": {
          "description": "The address space all of a program's workers may use together, a size like \"memory\"; at least 256 MiB; 4 GiB by default. Each worker's limit is what is left of it (at most \"memory\"); idle workers are ended to make room, oldest idle first, and a transition that finds none plays the built-in default, saying so. Strict sandbox only.",
          "oneOf": [
            {"type": "string", "pattern": "^ *[0-9]+(\\.[0-9]+)? *([KMG](iB)?|B)? *$"},
            {"type": "integer", "minimum": 268435456}
          ]
        }
      }
    },
    "curves": {
      "description": "Timing curves of your own, by name, for curve parameters (besides linear, easeIn, easeOut, easeInOut and default): a cubic Bezier's control points [x1, y1, x2, y2], or a physical spring {\"stiffness\", \"damping\", \"mass\"} (libadwaita's, niri's and Hyprland's form; it lasts until it settles within 0.001, and only the built-in default's curve follows one).",
      "type": "object",
      "propertyNames": {"not": {"enum": ["linear", "easeIn", "easeOut", "easeInOut", "default", "spring"]}, "minLength": 1},
      "additionalProperties": {
        "oneOf": [
          {
            "type": "array",
            "prefixItems": [
              {"type": "number", "minimum": 0, "maximum": 1}, {"type": "number", "minimum": -10, "maximum": 10},
              {"type": "number", "minimum": 0, "maximum": 1}, {"type": "number", "minimum": -10, "maximum": 10}
            ],
            "minItems": 4,
            "maxItems": 4
          },
          {
            "type": "object",
            "additionalProperties": false,
            "required": ["stiffness", "damping", "mass"],
            "properties": {
              "stiffness": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000000},
              "damping": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000000},
              "mass": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000000}
            }
          }
        ]
      }
    },
    "defaultAnimator": {
      "description": "The animator for transitions no rule matches: a plugin animator's short name, or \"default\" for the built-in one.",
      "$ref": "#/$defs/name"
    },
    "font": {
      "description": "The typeface labels are drawn in: a family name fontconfig matches (\"DejaVu Serif\"), or a font file relative to the config. DejaVu Sans unless told.",
      "type": "string",
      "minLength": 1
    },
    "rules": {
      "description": "Which animator runs for which switch, and for which view's appearance or disappearance: the most specific matching rule wins (from and to, then to only, then from only; a view's exact name, then the pattern with the most characters that are not wildcards; the first in the file among equals).",
      "type": "array",
      "items": {"$ref": "#/$defs/rule"}
    },
    "children": {
      "description": "The container's children, in order; without it, the built-in scene's.",
      "type": "array",
      "items": {"oneOf": [{"$ref": "#/$defs/name"}, {"$ref": "#/$defs/child"}]}
    },
    "windows": {
      "description": "Windows the script presents over the shown child and dismisses ({\"present\": NAME}, {\"dismiss\": NAME}): a child with a frame of its own.",
      "type": "array",
      "items": {"$ref": "#/$defs/window"}
    },
    "script": {
      "description": "The steps segue run plays, in order, from the first child: a child's name, an interactive step, or a window presented or dismissed.",
      "type": "array",
      "items": {"oneOf": [{"$ref": "#/$defs/name"}, {"$ref": "#/$defs/step"}, {"$ref": "#/$defs/presentation"}]}
    }
  },
  "$defs": {
    "name": {"type": "string", "minLength": 1},
    "color": {
      "description": "A colour as #RRGGBB or #RRGGBBAA.",
      "type": "string",
      "pattern": "^#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"
    },
    "coordinate": {"type": "number", "minimum": -100000, "maximum": 100000},
    "size": {"type": "number", "minimum": 0, "maximum": 100000},
    "rule": {
      "type": "object",
      "additionalProperties": false,
      "required": ["animator"],
      "oneOf": [
        {"anyOf": [{"required": ["from"]}, {"required": ["to"]}], "not": {"anyOf": [{"required": ["appear"]}, {"required": ["disappear"]}]}},
        {"anyOf": [{"required": ["appear"]}, {"required": ["disappear"]}], "not": {"anyOf": [{"required": ["from"]}, {"required": ["to"]}]}}
      ],
      "properties": {
        "from": {"description": "The child being left.", "$ref": "#/$defs/name"},
        "to": {"description": "The child being shown.", "$ref": "#/$defs/name"},
        "appear": {"description": "The views whose appearance (a window opening) the rule matches: a name, or a pattern where * is any characters and ? one (\"org.gnome.*\"), matched in any case (KWin lower-cases an X11 window's class: XTerm matches xterm).", "$ref": "#/$defs/name"},
        "disappear": {"description": "The views whose disappearance (a window closing) the rule matches, as 'appear'.", "$ref": "#/$defs/name"},
        "animator": {"description": "A plugin animator's short name, or \"default\" for the built-in one.", "$ref": "#/$defs/name"},
        "parameters": {
          "description": "Parameter values by name: \#(ParameterKinds.forms) ('segue inspect ANIMATOR' lists them).",
          "type": "object",
          "additionalProperties": {"type": [\#(ParameterKinds.types)]}
        }
      }
    },
    "picture": {
      "description": "A PNG or JPEG file shown over the colour, relative to the config's folder (a leading ~ is the home folder).",
      "type": "string",
      "minLength": 1
    },
    "fit": {
      "description": "How the picture meets the view's shape, as CSS's object-fit: cover (the default: fills it, cut to shape), contain (all of it, the colour beside) or fill (stretched).",
      "enum": ["cover", "contain", "fill"]
    },
    "window": {
      "type": "object",
      "additionalProperties": false,
      "required": ["name"],
      "properties": {
        "name": {"$ref": "#/$defs/name"},
        "frame": {
          "description": "[x, y, width, height] in the container, in points; without it, the container's bounds.",
          "type": "array", "minItems": 4, "maxItems": 4,
          "prefixItems": [{"$ref": "#/$defs/coordinate"}, {"$ref": "#/$defs/coordinate"}, {"$ref": "#/$defs/size"}, {"$ref": "#/$defs/size"}],
          "items": false
        },
        "color": {"$ref": "#/$defs/color"},
        "picture": {"$ref": "#/$defs/picture"},
        "fit": {"$ref": "#/$defs/fit"},
        "elements": {"type": "array", "items": {"$ref": "#/$defs/element"}}
      },
      "dependentRequired": {"fit": ["picture"]}
    },
    "presentation": {
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1, "maxProperties": 1,
      "properties": {
        "present": {"description": "A window to present over the shown child.", "$ref": "#/$defs/name"},
        "dismiss": {"description": "The window presented, to dismiss.", "$ref": "#/$defs/name"}
      }
    },
    "child": {
      "type": "object",
      "additionalProperties": false,
      "required": ["name"],
      "properties": {
        "name": {"$ref": "#/$defs/name"},
        "color": {"$ref": "#/$defs/color"},
        "picture": {"$ref": "#/$defs/picture"},
        "fit": {"$ref": "#/$defs/fit"},
        "elements": {"type": "array", "items": {"$ref": "#/$defs/element"}}
      },
      "dependentRequired": {"fit": ["picture"]}
    },
    "element": {
      "type": "object",
      "additionalProperties": false,
      "required": ["name", "frame"],
      "not": {"anyOf": [{"required": ["image", "label"]}, {"required": ["image", "picture"]}, {"required": ["picture", "label"]}]},
      "dependentRequired": {"fit": ["picture"]},
      "properties": {
        "name": {"$ref": "#/$defs/name"},
        "frame": {
          "description": "[x, y, width, height] in the child's points.",
          "type": "array",
          "prefixItems": [{"$ref": "#/$defs/coordinate"}, {"$ref": "#/$defs/coordinate"}, {"$ref": "#/$defs/size"}, {"$ref": "#/$defs/size"}],
          "minItems": 4,
          "maxItems": 4
        },
        "image": {"description": "A procedural picture's seed.", "type": "integer", "minimum": -999999999, "maximum": 999999999},
        "picture": {"$ref": "#/$defs/picture"},
        "fit": {"$ref": "#/$defs/fit"},
        "label": {"description": "A text label.", "type": "string"},
        "color": {"$ref": "#/$defs/color"}
      }
    },
    "step": {
      "type": "object",
      "additionalProperties": false,
      "required": ["select"],
      "dependentRequired": {"release": ["interactive"], "velocity": ["interactive"]},
      "properties": {
        "select": {"description": "The child to select.", "$ref": "#/$defs/name"},
        "interactive": {
          "description": "Fractions the gesture moves through, one per frame.",
          "type": "array",
          "minItems": 1,
          "items": {"type": "number", "minimum": 0, "maximum": 1}
        },
        "release": {"description": "How the gesture ends.", "enum": ["finish", "cancel", "gesture"]},
        "velocity": {"description": "The pan's speed at release, in container widths per second.", "type": "number", "minimum": -1000, "maximum": 1000}
      }
    }
  }
}
"""#
}

/// The parameter kinds' part of the schema, made from ``ParameterDescriptor/Kind/Tag``.
private enum ParameterKinds {
    /// "a number, a whole number, true or false, ..."
    static let forms = Tag.allCases.map(\.configForm).joined(separator: ", ")
    /// "\"number\", \"boolean\", \"string\"": each JSON type once, in the kinds' order.
    static let types = Tag.allCases.map(\.configType).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        .map { "\"\($0)\"" }.joined(separator: ", ")
    typealias Tag = ParameterDescriptor.Kind.Tag
}
