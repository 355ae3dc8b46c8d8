// The QML demo's benchmark: the same two pages pushed by a SegueStackView and by Qt Quick Controls'
// StackView (its own push transition, a slide), side by side in one window, each clipped to its half.
import QtQuick 2.15
import QtQuick.Controls 2.15
import QtQuick.Window 2.15
import Segue 1.0

Window {
    width: 780
    height: 844
    visible: true
    color: "black"
    property alias segue: segue
    property alias qtStack: qtStack
    property Component first: Rectangle {
        objectName: "list"
        color: "#f5f5f0"
        Column {
            y: 70; width: parent.width
            Repeater {
                model: 8
                Rectangle {
                    width: parent.width; height: 64; color: ["#e6b0a6", "#a6d2b4", "#aeb8ea", "#f2d896"][index % 4]
                    Text { x: 16; anchors.verticalCenter: parent.verticalCenter; text: "Place " + index; font.pixelSize: 20 }
                }
            }
        }
    }
    property Component second: Rectangle {
        objectName: "picture"
        gradient: Gradient {
            GradientStop { position: 0; color: "#285aaa" }
            GradientStop { position: 1; color: "#faaa5a" }
        }
        Text { y: parent.height * 0.8; width: parent.width; horizontalAlignment: Text.AlignHCenter; text: "Lofoten"; color: "white"; font.pixelSize: 30 }
    }
    function seguePush() { segue.push(second) }
    function seguePop() { segue.pop(); segue.finishTransition() }
    function qtPush() { qtStack.push(second) }
    function qtPop() { qtStack.pop(null, StackView.Immediate) }
    // --fade: StackView's push slides and cross-fades both pages, as SpringSlide does (the same kind).
    // The fade animates opacity as a property: Qt 6's software renderer drew neither page (the view
    // black) with an OpacityAnimator here, so its frames cost nothing to draw.
    function fadeStackView() {
        qtStack.pushEnter = fadeEnter
        qtStack.pushExit = fadeExit
    }
    property Transition fadeEnter: Transition {
        XAnimator { from: qtStack.width; to: 0; duration: 400; easing.type: Easing.OutCubic }
        NumberAnimation { property: "opacity"; from: 0; to: 1; duration: 400; easing.type: Easing.OutCubic }
    }
    property Transition fadeExit: Transition {
        XAnimator { from: 0; to: -qtStack.width; duration: 400; easing.type: Easing.OutCubic }
        NumberAnimation { property: "opacity"; from: 1; to: 0; duration: 400; easing.type: Easing.OutCubic }
    }
    SegueStackView { id: segue; x: 0; width: 390; height: 844; initialItem: first }
    StackView { id: qtStack; x: 390; width: 390; height: 844; clip: true; initialItem: first }
}
