// The QML demo's window: three pages (a list of places, a picture, a booking form) in a SegueStackView.
import QtQuick 2.15
import QtQuick.Window 2.15
import Segue 1.0

Window {
    id: window
    width: 390
    height: 844
    visible: true
    color: "black"
    title: "Segue QML demo"

    property alias stack: stack
    property var pages: ({ "list": listPage, "picture": picturePage, "form": formPage })

    Component {
        id: listPage
        Rectangle {
            objectName: "list"
            color: "#f5f5f0"
            Text { x: 16; y: 16; text: "Places"; font.pixelSize: 28; font.bold: true }
            Column {
                y: 70
                width: parent.width
                Repeater {
                    model: ["Lofoten", "Reine", "Henningsvær", "Svolvær", "Nusfjord", "Å", "Hamnøy", "Sakrisøy"]
                    Rectangle {
                        width: parent.width
                        height: 64
                        color: ["#e6b0a6", "#a6d2b4", "#aeb8ea", "#f2d896"][index % 4]
                        Text { x: 16; anchors.verticalCenter: parent.verticalCenter; text: modelData; font.pixelSize: 20 }
                        MouseArea { anchors.fill: parent; onClicked: stack.push(picturePage) }
                    }
                }
            }
        }
    }

    Component {
        id: picturePage
        Rectangle {
            objectName: "picture"
            gradient: Gradient {
                GradientStop { position: 0; color: "#285aaa" }
                GradientStop { position: 0.6; color: "#faaa5a" }
                GradientStop { position: 1; color: "#3c2832" }
            }
            Rectangle { x: parent.width * 0.7 - 40; y: parent.height * 0.2 - 40; width: 80; height: 80; radius: 40; color: "#fff0c8" }
            Rectangle { y: parent.height * 0.7; width: parent.width; height: parent.height * 0.3; color: "#1e1e2d" }
            Text {
                y: parent.height * 0.82; width: parent.width; horizontalAlignment: Text.AlignHCenter
                text: "Lofoten"; color: "white"; font.pixelSize: 30; font.bold: true
            }
            MouseArea { anchors.fill: parent; onClicked: stack.push(formPage) }
        }
    }

    Component {
        id: formPage
        Rectangle {
            objectName: "form"
            color: "#e1ebfa"
            Column {
                x: 16; y: 16; spacing: 18
                Text { text: "Booking"; font.pixelSize: 28; font.bold: true }
                Repeater {
                    model: ["Name: Ada", "Arrival: 2026-07-01", "Nights: 4"]
                    Rectangle {
                        width: 340; height: 48; color: "white"; border.color: "#8899bb"
                        Text { x: 10; anchors.verticalCenter: parent.verticalCenter; text: modelData; font.pixelSize: 18 }
                    }
                }
                Rectangle {
                    width: 120; height: 48; radius: 8; color: "#3366cc"
                    Text { anchors.centerIn: parent; text: "Book"; color: "white"; font.pixelSize: 18 }
                    MouseArea { anchors.fill: parent; onClicked: stack.pop() }
                }
            }
        }
    }

    SegueStackView {
        id: stack
        objectName: "stack"
        anchors.fill: parent
        initialItem: listPage
        onTransitionFinished: function (animator, completed, fellBack, reason) {
            console.log("finished|" + animator + "|" + (completed ? 1 : 0) + "|" + (fellBack ? 1 : 0) + "|" + reason)
        }
    }

    Item {
        focus: true
        Keys.onRightPressed: stack.push(stack.depth === 1 ? picturePage : formPage)
        Keys.onLeftPressed: stack.pop()
    }
}
