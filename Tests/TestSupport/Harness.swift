import Foundation
import Testing

import HostContainer

/// A child controller that records the containment calls it receives.
public final class RecordingViewController: ViewController {
    public var calls: [String] = []
    public override func willMove(toParent parent: ViewController?) { calls.append("willMove(\(parent?.name ?? "nil"))") }
    public override func didMove(toParent parent: ViewController?) { calls.append("didMove(\(parent?.name ?? "nil"))") }
}

/// A container of named children with recording controllers, on a virtual clock.
public final class Harness {
    public let clock = VirtualClock()
    public let children: [RecordingViewController]
    public let container: ContainerViewController
    public var events: [ContainerEvent] = []
    public var reports: [TransitionReport] = []
    /// Held strongly here: the container holds its delegate weakly, as UIKit does.
    public var delegate: (any ContainerViewControllerDelegate)? {
        didSet { container.delegate = delegate }
    }

    public init(_ names: [String] = ["a", "b", "c"], size: Rect = Rect(x: 0, y: 0, width: 320, height: 480),
         elements: [String: [(String, Rect)]] = [:]) {
        children = names.map { name in
            let root = View(frame: size.bounds)
            for (elementName, frame) in elements[name] ?? [] { root.addSubview(View(name: elementName, frame: frame)) }
            return RecordingViewController(name: name, view: root)
        }
        container = ContainerViewController(viewControllers: children, size: size, clock: clock)
        container.onEvent = { [unowned self] in events.append($0) }
        container.onTransitionEnd = { [unowned self] in reports.append($0) }
    }

    public func child(_ name: String) -> RecordingViewController { children.first { $0.name == name }! }

    /// The children whose views are in the container.
    public var shownNames: [String] {
        container.view.subviews.compactMap { v in children.first { $0.view === v }?.name }
    }

    /// Selects `name` and runs until idle at 60 fps.
    public func switchTo(_ name: String) throws {
        try container.select(named: name)
        container.runUntilIdle(advancing: clock)
    }

    /// Asserts the container is at rest: one child shown, it is the selection,
    /// every view at rest, containment consistent.
    public func expectConsistent(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!container.isTransitioning, sourceLocation: sourceLocation)
        #expect(shownNames.count == 1, "exactly one child shown, found \(shownNames)", sourceLocation: sourceLocation)
        #expect(container.view.subviews.count == 1, "no leftover layers", sourceLocation: sourceLocation)
        let selected = container.selectedViewController
        #expect(shownNames.first == selected?.name, sourceLocation: sourceLocation)
        #expect(container.children.count == 1 && container.children.first === selected, sourceLocation: sourceLocation)
        #expect(selected?.view.frame == container.view.bounds, sourceLocation: sourceLocation)
        for child in children {
            #expect(child.view.isAtRest, "\(child.name) is at rest", sourceLocation: sourceLocation)
        }
    }
}

/// Whether `a` and `b` differ by at most `tolerance`.
public func approx(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
