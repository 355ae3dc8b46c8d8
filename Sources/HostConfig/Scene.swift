import HostContainer

/// Turns a config's children into view controllers with views, for a
/// container of a given size. Children without a colour get one from a
/// fixed palette, so that every child looks different.
public enum Scene {
    static let palette: [Color] = [
        "#E8584F", "#F2A541", "#4FB477", "#3E8ED0", "#8E6CCF", "#F4F1EA", "#2B2D42",
    ].map { Color(hex: $0)! }

    /// One view controller per child, in order; each root view fills `size`
    /// (a window's, its own frame's size), with the child's elements as named subviews.
    public static func viewControllers(for children: [SegueConfig.Child], size: Rect = .phonePortrait) -> [ViewController] {
        children.enumerated().map { index, child in
            let root = View(frame: child.frame ?? size.bounds)
            root.backgroundColor = child.color ?? palette[index % palette.count]
            root.content = child.content
            for element in child.elements {
                let view = View(name: element.name, frame: element.frame)
                view.content = element.content
                view.backgroundColor = element.color ?? .white
                view.cornerRadius = 8
                root.addSubview(view)
            }
            return ViewController(name: child.name, view: root)
        }
    }
}
