import AnimatorABI
import HostConfig
import PluginRuntime
import Testing
import Timing

/// Each parameter kind's facts live in `ParameterDescriptor.Kind.Tag`: its
/// ABI value, its tag in a scanner's answer, its config form and the schema
/// made from it. These hold for every kind there is, so a kind added there
/// is checked here without a line of this file changing.
@Suite struct ParameterKindTests {
    typealias Tag = ParameterDescriptor.Kind.Tag

    @Test(arguments: Tag.allCases)
    func aKindIsFoundByItsABIValueAndCrossesAScannersAnswer(_ tag: Tag) throws {
        #expect(Tag(abiValue: tag.abiValue.rawValue) == tag)
        let kind = ParameterDescriptor.Kind(tag, choices: ["left", "right"])
        #expect(kind.tag == tag)
        let maximum = tag == .curve ? Double(SEGUE_CURVE_DEFAULT.rawValue) : 1
        let parameter = ParameterDescriptor(name: "p", explanation: "one of each", kind: kind, defaultValue: 0, minimum: 0, maximum: maximum)
        let description = PluginDescription(animators: [AnimatorDescription(id: "org.segue.test.kinds/1", name: "Kinds", version: "1.0.0",
                                                                            summary: "", parameters: [parameter])])
        guard case .plugin(let decoded) = try ScanResult(decoding: ScanResult.plugin(description).encoded()) else {
            Issue.record("the answer did not decode as a plugin")
            return
        }
        #expect(decoded == description)
        #expect((try? PluginBoundary.validated(description).get()) == description, "a well-formed parameter of every kind passes the rules")
    }

    @Test func kindsHaveDistinctABIValuesAndTagsAndNoOtherIsKnown() {
        #expect(Set(Tag.allCases.map(\.abiValue.rawValue)).count == Tag.allCases.count)
        #expect(Set(Tag.allCases.map(\.label)).count == Tag.allCases.count)
        let next = (Tag.allCases.map(\.abiValue.rawValue).max() ?? 0) + 1
        #expect(Tag(abiValue: next) == nil, "a newer ABI's kind is not taken for one of these")
        #expect(Tag.known.hasSuffix("and \(Tag.allCases.last!.abiValue.rawValue) (\(Tag.allCases.last!.label), since 1.1)"), "\(Tag.known)")
    }

    @Test func theSchemaAcceptsEachKindsConfigForm() {
        for tag in Tag.allCases {
            #expect(SegueConfig.jsonSchema.contains(tag.configForm), "the parameters' description names \(tag.label)'s form")
            #expect(SegueConfig.jsonSchema.contains("\"\(tag.configType)\""), "a \(tag.label)'s JSON type is accepted")
        }
    }
}
