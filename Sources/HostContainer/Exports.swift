// The plugin runtime's public types (parameters, rejections, curves, springs,
// versions) are part of this library's API: importing HostContainer imports them.
@_exported import PluginRuntime
