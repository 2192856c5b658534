// The Probes tab: the probes docked out of the canvas, side by side (scrolls when they do not fit).
import QtQuick
import QtQuick.Controls
import Isochron.Ui

Rectangle {
    id: dock
    property RunController run
    property ProbeLayout layout
    color: Theme.panelAlt

    Text {
        visible: dock.layout.dockedCount(dock.run.probes) === 0
        anchors.centerIn: parent
        text: qsTr("Right-click a wire and choose a probe; dock it here with its ▭ button.")
        color: Theme.textDim
        font.pixelSize: Theme.fontSize
    }
    ScrollView {
        anchors.fill: parent
        anchors.margins: 8
        contentHeight: availableHeight
        Row {
            height: parent.height
            spacing: 8
            Repeater {
                model: dock.run.probes
                delegate: ProbeCard {
                    required property var modelData
                    readonly property var place: dock.layout.stateOf(modelData.key)
                    probe: modelData
                    run: dock.run
                    visible: place.docked
                    width: visible ? 380 : 0
                    height: collapsed ? collapsedHeight : dock.height - 16
                    docked: true
                    collapsed: place.collapsed
                    onDockToggled: dock.layout.set(modelData.key, {docked: false})
                    onCollapseToggled: dock.layout.set(modelData.key, {collapsed: !place.collapsed})
                }
            }
        }
    }
}
