/// A view controller: a name, a root view, and a place in a parent/child tree.
///
/// Subclass to observe containment: ``willMove(toParent:)`` and
/// ``didMove(toParent:)`` are called by containers as UIKit calls them.
/// Not thread-safe: use from the thread that drives the container.
open class ViewController {
    /// The child's name, used by config rules and reports.
    public let name: String
    /// The root view.
    public let view: View
    /// The container this controller is a child of.
    public private(set) weak var parent: ViewController?
    /// The controllers added with ``addChild(_:)``.
    public private(set) var children: [ViewController] = []

    /// A controller called `name` whose root view is `view`.
    public init(name: String, view: View) {
        self.name = name
        self.view = view
    }

    /// Called before the controller is added to or removed from a parent (nil when removed).
    open func willMove(toParent parent: ViewController?) {}

    /// Called after the controller was added to or removed from a parent (nil when removed).
    open func didMove(toParent parent: ViewController?) {}

    /// Adds `child` as a child controller. Like UIKit, this calls
    /// `child.willMove(toParent: self)` but not `didMove`: the caller does that.
    public func addChild(_ child: ViewController) {
        guard child.parent !== self else { return }
        child.removeFromParent()
        child.willMove(toParent: self)
        children.append(child)
        child.parent = self
    }

    /// Removes the controller from its parent. Like UIKit, this calls
    /// `didMove(toParent: nil)` but not `willMove`: the caller does that first.
    public func removeFromParent() {
        guard let p = parent else { return }
        p.children.removeAll { $0 === self }
        parent = nil
        didMove(toParent: nil)
    }
}
