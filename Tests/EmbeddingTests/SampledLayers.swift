import Foundation
import Testing
import TestSupport
@testable import Embedding
import EmbedABI
import AnimatorABI

/// A transition's planned layers and their states at a fraction of its
/// duration, as libsegue answers them: what the integrations' tests draw
/// with Segue's renderer to compare with what KWin or GTK drew.
struct SampledLayers {
    var plan = segue_plan_info_t()
    var layers: [segue_layer_request_t] = []
    var states: [segue_layer_state_t] = []
    var meshes: [[segue_vec3_t]] = []
    /// The animator that runs, and why: copied, so they outlive the transition (the plan's strings do not).
    let animator: String
    let reason: String

    /// Samples `transition` at `fraction` of its planned duration, again while the plugin is late (10 s at most).
    init(_ transition: OpaquePointer, at fraction: Double) throws {
        plan.struct_size = UInt32(MemoryLayout<segue_plan_info_t>.size)
        _ = segueTransitionPlan(transition, &plan)
        (animator, reason) = (String(cString: plan.animator), String(cString: plan.reason))
        let layers = withUnsafeBytes(of: plan.layers) { Array($0.bindMemory(to: segue_layer_request_t.self).prefix(Int(plan.layer_count))) }
        var meshes = layers.map { layer -> [segue_vec3_t] in
            var l = layer
            return [segue_vec3_t](repeating: segue_vec3_t(), count: Int(segue_layer_mesh_vertex_count(&l)))
        }
        var states = [segue_layer_state_t](repeating: segue_layer_state_t(), count: layers.count)
        let duration = plan.duration
        let deadline = Date().addingTimeInterval(10)
        var status = SEGUE_LATE
        while status == SEGUE_LATE && Date() < deadline {
            status = states.withUnsafeMutableBufferPointer { buffer in
                var pointers: [UnsafeMutablePointer<segue_layer_state_t>?] = []
                for i in buffer.indices {
                    buffer[i].struct_size = UInt32(MemoryLayout<segue_layer_state_t>.size)
                    meshes[i].withUnsafeMutableBufferPointer { mesh in
                        buffer[i].mesh = mesh.isEmpty ? nil : mesh.baseAddress
                        buffer[i].mesh_vertex_count = UInt32(mesh.count)
                    }
                    pointers.append(buffer.baseAddress! + i)
                }
                return segueTransitionSample(transition, duration * fraction, &pointers, UInt32(pointers.count))
            }
        }
        try #require(status == SEGUE_OK, "sample: \(status.rawValue)")
        (self.layers, self.states, self.meshes) = (layers, states, meshes)
    }
}
