import Foundation
import HostConfig
import HostContainer

// Reading configs: 100,000 children, 100,000 rules, and 100,000 children
// with an element each, parsed from memory (the file read is not counted);
// the median of 5.

func configBenchmark() {
    func document(_ build: (inout String) -> Void) -> Data {
        var text = ""
        build(&text)
        return Data(text.utf8)
    }
    let n = 100_000
    let children = (0..<n).map { "\"c\($0)\"" }.joined(separator: ", ")
    let cases: [(String, Data)] = [
        ("100,000 children", document { $0 = "{\"children\": [\(children)]}" }),
        ("100,000 rules", document {
            $0 = "{\"children\": [\(children)], \"rules\": ["
                + (1..<n).map { "{\"from\": \"c\($0 - 1)\", \"to\": \"c\($0)\", \"animator\": \"CurlUp\"}" }.joined(separator: ", ") + "]}"
        }),
        ("100,000 children with an element each", document {
            $0 = "{\"children\": ["
                + (0..<n).map { "{\"name\": \"c\($0)\", \"color\": \"#112233\", \"elements\": [{\"name\": \"e\", \"frame\": [1, 2, 3, 4], \"image\": 1}]}" }
                    .joined(separator: ", ") + "]}"
        }),
    ]
    for (label, data) in cases {
        var times: [Double] = []
        for _ in 0..<5 {
            let start = now()
            guard (try? SegueConfig.parse(data, file: "bench.json", baseDirectory: "/")) != nil else {
                print("  \(label): refused (a bug in the benchmark)")
                return
            }
            times.append(now() - start)
        }
        let padded = label.padding(toLength: 40, withPad: " ", startingAt: 0)
        print("  \(padded)" + String(format: "%6.0f ms  (%.1f MB)", times.sorted()[2] * 1e3, Double(data.count) / 1e6))
    }
}
