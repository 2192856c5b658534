// The localization view (a bottom tab when the graph localizes): the bearings on a polar plot, fading
// over the last 30 s; for a frame-wise graph the bearing-time plot beside it (every track as a line,
// the background shaded, each sound a bar); the map of triangulated sources when several arrays
// triangulate; and the event list, whose Play button (or Space) plays an event's audio (a mic or the mix).
// Past events opened from an archive (the Archive tab's "Show in Localization tab") show the same way,
// under a bar saying where they come from, until "Back to live" or the next run; a frame-wise
// tracker's past events come with the tracks and background recorded beside them, on the interval's
// time axis, and a note under the legend names what was not recorded.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Rectangle {
    id: panel
    property RunController run
    readonly property LocalizationFeed feed: run.localization
    readonly property var arrayColors: ["#3b82f6", "#f97316", "#22c55e", "#ec4899", "#a855f7", "#14b8a6"]
    color: Theme.panelAlt

    function play(row) {
        const why = feed.play(row, micBox.currentIndex - 1)
        if (why.length > 0) toast.show(why, Qt.point(eventList.x, 8))
    }

    Rectangle {  // past events: where they come from
        id: pastBar
        objectName: "pastEventsBar"
        visible: panel.feed.past.length > 0
        anchors.left: parent.left; anchors.right: parent.right; anchors.top: parent.top
        anchors.margins: 8
        height: visible ? 28 : 0
        radius: 4
        color: Theme.accentSoft
        border.color: Theme.accent
        RowLayout {
            anchors.fill: parent
            anchors.leftMargin: 8
            anchors.rightMargin: 4
            Text {
                objectName: "pastEventsLabel"
                Layout.fillWidth: true
                elide: Text.ElideMiddle
                font.pixelSize: Theme.smallFontSize
                font.weight: Font.DemiBold
                color: Theme.text
                text: qsTr("Past events from the archive: %1").arg(panel.feed.past)
                ToolTip.visible: pastHover.hovered
                ToolTip.text: panel.feed.pastPath
                HoverHandler { id: pastHover }
            }
            Button {
                objectName: "backToLiveButton"
                implicitHeight: 22
                text: qsTr("Back to live")
                onClicked: panel.feed.closePast()
            }
        }
    }

    RowLayout {
        anchors.left: parent.left; anchors.right: parent.right; anchors.bottom: parent.bottom
        anchors.top: pastBar.visible ? pastBar.bottom : parent.top
        anchors.margins: 8
        spacing: 8

        Rectangle {  // polar plot with its labels
            Layout.preferredWidth: height
            Layout.fillHeight: true
            color: Theme.panel
            radius: 6
            border.color: Theme.border
            BearingPlot {
                id: plot
                objectName: "bearingPlot"
                anchors.fill: parent
                anchors.margins: 14
                events: panel.feed.events
                colors: panel.arrayColors
                gridColor: Theme.gridMajor
                highlightColor: Theme.selection
                MouseArea {
                    anchors.fill: parent
                    onClicked: (mouse) => {
                        const row = plot.rowAt(mouse.x, mouse.y)
                        if (row >= 0) { panel.feed.events.selectedRow = row; eventList.positionViewAtIndex(row, ListView.Contain) }
                    }
                }
                Repeater {
                    model: [0, 90, 180, 270]
                    Text {
                        required property int modelData
                        readonly property point at: { plot.radius; return plot.pointFor(modelData, 0) }
                        x: at.x - width / 2 + (modelData === 90 ? -10 : modelData === 270 ? 10 : 0)
                        y: at.y - height / 2 + (modelData === 0 ? -8 : modelData === 180 ? 8 : 0)
                        text: modelData + "°"
                        font.pixelSize: 9
                        color: Theme.textFaint
                    }
                }
                Text {
                    readonly property point at: { plot.radius; return plot.pointFor(0, 60) }
                    x: at.x + 3; y: at.y
                    text: "60°"
                    font.pixelSize: 8
                    color: Theme.textFaint
                }
            }
            Text {
                anchors.left: parent.left; anchors.top: parent.top; anchors.margins: 6
                text: qsTr("front ↑")
                font.pixelSize: 9
                color: Theme.textDim
            }
        }

        Rectangle {  // bearing against time: what the plots and the event list (at least 420 px) leave, up to twice the height
            visible: panel.feed.hasTracks
            Layout.preferredWidth: Math.max(120, Math.min(height * 2, panel.width - 16 - height - (panel.feed.hasMap ? height : 0) - 420 - 24))
            Layout.fillHeight: true
            color: Theme.panel
            radius: 6
            border.color: Theme.border
            BearingTimePlot {
                id: timePlot
                objectName: "bearingTimePlot"
                anchors.fill: parent
                anchors.leftMargin: 34
                anchors.rightMargin: 12
                anchors.topMargin: timeLegend.height + 18  // the 360° label sits below the title and legend
                anchors.bottomMargin: 18
                events: panel.feed.events
                tracks: panel.feed.tracks
                spanFrom: panel.feed.pastFrom  // past events: their interval (both 0 live: the axis follows the clock)
                spanTo: panel.feed.pastTo
                colors: panel.arrayColors
                gridColor: Theme.gridMajor
                highlightColor: Theme.selection
                // A neutral, unsaturated band: nothing like the tracks' colours in either theme.
                backgroundColor: Theme.dark ? Qt.rgba(0.66, 0.64, 0.62, 0.30) : Qt.rgba(0.47, 0.44, 0.42, 0.22)
                MouseArea {
                    anchors.fill: parent
                    onClicked: (mouse) => {
                        const row = timePlot.rowAt(mouse.x, mouse.y)
                        if (row >= 0) { panel.feed.events.selectedRow = row; eventList.positionViewAtIndex(row, ListView.Contain) }
                    }
                }
                Repeater {
                    model: [0, 90, 180, 270, 360]
                    Text {
                        required property int modelData
                        objectName: "azimuthLabel"
                        x: -width - 4
                        y: { timePlot.height; return timePlot.yFor(modelData) - height / 2 }
                        text: modelData + "°"
                        font.pixelSize: 9
                        color: Theme.textFaint
                    }
                }
                Repeater {  // stream time under the plot
                    model: timePlot.timeTicks
                    Text {
                        required property real modelData
                        readonly property real at: { timePlot.timeFrom; timePlot.width; return timePlot.xFor(modelData) }
                        visible: at - width / 2 >= -timePlot.anchors.leftMargin && at + width / 2 <= timePlot.width + 8
                        y: timePlot.height + 2  // not anchored to parent: a Repeater's delegate has none while it is made
                        x: at - width / 2
                        readonly property real step: timePlot.timeTicks.length > 1 ? timePlot.timeTicks[1] - timePlot.timeTicks[0] : 1
                        text: modelData.toFixed(step < 0.1 ? 2 : step < 1 ? 1 : 0) + " s"
                        font.pixelSize: 9
                        color: Theme.textFaint
                    }
                }
            }
            Flow {  // title and legend (wrapping): coloured lines are tracks, the grey band the steady background
                id: timeLegend
                objectName: "bearingTimeLegend"
                anchors.left: parent.left; anchors.right: parent.right; anchors.top: parent.top; anchors.margins: 6
                spacing: 5
                Text {
                    objectName: "bearingTimeTitle"
                    text: panel.feed.past.length ? qsTr("azimuth vs time, past") : qsTr("azimuth vs time")
                    font.pixelSize: 9
                    color: Theme.textDim
                    rightPadding: 4
                }
                Row {
                    spacing: 3
                    Repeater {
                        model: panel.arrayColors.slice(0, 3)
                        Rectangle { required property string modelData; width: 6; height: 3; radius: 1; y: (tracksLabel.height - height) / 2; color: modelData }
                    }
                    Text { id: tracksLabel; text: qsTr("tracks"); font.pixelSize: 9; color: Theme.textDim; rightPadding: 4 }
                }
                Row {
                    spacing: 3
                    Rectangle { width: 14; height: 8; anchors.verticalCenter: parent.verticalCenter; color: timePlot.backgroundColor }
                    Text { text: qsTr("background"); font.pixelSize: 9; color: Theme.textDim }
                }
                Text {  // past events: what the archive did not record beside them
                    objectName: "pastTracksNote"
                    visible: text.length > 0
                    width: timeLegend.width
                    wrapMode: Text.Wrap
                    text: panel.feed.past.length ? panel.feed.pastTracksNote : ""
                    font.pixelSize: 9
                    color: Theme.warning
                }
            }
        }

        Rectangle {  // map of triangulated sources
            visible: panel.feed.hasMap
            Layout.preferredWidth: height
            Layout.fillHeight: true
            color: Theme.panel
            radius: 6
            border.color: Theme.border
            SourceMap {
                id: map
                objectName: "sourceMap"
                anchors.fill: parent
                anchors.margins: 4
                feed: panel.feed
                gridColor: Theme.gridMajor
            }
            Text {
                anchors.left: parent.left; anchors.top: parent.top; anchors.margins: 6
                text: qsTr("map, grid %1 m").arg(map.gridStep)
                font.pixelSize: 9
                color: Theme.textDim
            }
        }

        Rectangle {  // event list
            Layout.fillWidth: true
            Layout.fillHeight: true
            color: Theme.panel
            radius: 6
            border.color: Theme.border
            ColumnLayout {
                anchors.fill: parent
                anchors.margins: 4
                spacing: 2
                RowLayout {
                    Layout.fillWidth: true
                    Text {
                        Layout.fillWidth: true
                        objectName: "eventCountLabel"
                        text: panel.feed.events.count
                              ? (panel.feed.past.length ? qsTr("%1 past events").arg(panel.feed.events.count)
                                 : qsTr("%1 events").arg(panel.feed.events.count) + (panel.feed.dropped ? qsTr(" (%1 dropped)").arg(panel.feed.dropped) : ""))
                              : (panel.run.running ? qsTr("Listening…") : qsTr("Run the graph (F5) to see where sounds come from."))
                        font.pixelSize: Theme.smallFontSize
                        color: Theme.textDim
                        leftPadding: 4
                    }
                    Text { text: qsTr("Play"); font.pixelSize: Theme.smallFontSize; color: Theme.textDim }
                    ComboBox {
                        id: micBox
                        Layout.preferredWidth: 110
                        implicitHeight: 26
                        model: [qsTr("all mics")].concat(Array.from({length: panel.feed.mics}, (_, i) => qsTr("mic %1").arg(i)))
                    }
                }
                Row {
                    spacing: 0
                    leftPadding: 6
                    Repeater {
                        model: [[qsTr("time (s)"), 120], [qsTr("azimuth"), 70], [qsTr("elevation"), 70], [qsTr("confidence"), 110], [qsTr("track"), 50]]
                        Text { required property var modelData; width: modelData[1]; text: modelData[0]; font.pixelSize: 10; font.bold: true; color: Theme.textDim }
                    }
                }
                ListView {
                    id: eventList
                    objectName: "eventList"
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    clip: true
                    model: panel.feed.events
                    ScrollBar.vertical: ScrollBar {}
                    activeFocusOnTab: true
                    // Up and Down move the selection (newest at the top), Space plays it.
                    function select(row) {
                        panel.feed.events.selectedRow = Math.max(0, Math.min(count - 1, row))
                        positionViewAtIndex(panel.feed.events.selectedRow, ListView.Contain)
                    }
                    Keys.onUpPressed: select(panel.feed.events.selectedRow - 1)
                    Keys.onDownPressed: select(panel.feed.events.selectedRow + 1)
                    Keys.onSpacePressed: if (panel.feed.events.selectedRow >= 0) panel.play(panel.feed.events.selectedRow)
                    delegate: Rectangle {
                        id: row
                        required property int index
                        required property real startTime
                        required property real endTime
                        required property real azimuth
                        required property real elevation
                        required property real confidence
                        required property int array
                        required property int trackId
                        width: ListView.view.width
                        height: 26
                        color: row.index === panel.feed.events.selectedRow ? Theme.accentSoft : (hover.hovered ? Theme.hover : "transparent")
                        HoverHandler { id: hover }
                        TapHandler { onTapped: { panel.feed.events.selectedRow = row.index; eventList.forceActiveFocus() } }
                        Row {
                            anchors.verticalCenter: parent.verticalCenter
                            leftPadding: 6
                            Rectangle { width: 8; height: 8; radius: 4; anchors.verticalCenter: parent.verticalCenter; color: panel.arrayColors[row.array % panel.arrayColors.length] }
                            Text { width: 112; leftPadding: 4; text: row.startTime.toFixed(3) + " – " + row.endTime.toFixed(3); font.family: Theme.monoFont; font.pixelSize: 10; color: Theme.text }
                            Text { width: 70; text: row.azimuth.toFixed(1) + "°"; font.family: Theme.monoFont; font.pixelSize: 10; color: Theme.text }
                            Text { width: 70; text: row.elevation.toFixed(1) + "°"; font.family: Theme.monoFont; font.pixelSize: 10; color: Theme.text }
                            Item {
                                width: 110; height: 12
                                anchors.verticalCenter: parent.verticalCenter
                                Rectangle { width: 60; height: 6; radius: 3; anchors.verticalCenter: parent.verticalCenter; color: Theme.border }
                                Rectangle { width: 60 * row.confidence; height: 6; radius: 3; anchors.verticalCenter: parent.verticalCenter; color: Theme.accent }
                                Text { x: 66; anchors.verticalCenter: parent.verticalCenter; text: row.confidence.toFixed(2); font.family: Theme.monoFont; font.pixelSize: 10; color: Theme.text }
                            }
                            Text { width: 50; text: row.trackId >= 0 ? row.trackId : "–"; font.family: Theme.monoFont; font.pixelSize: 10; color: Theme.text }
                        }
                        IconButton {
                            objectName: "playButton"
                            anchors.right: parent.right
                            anchors.verticalCenter: parent.verticalCenter
                            implicitWidth: 26; implicitHeight: 22
                            iconName: "play"
                            iconColor: Theme.success
                            tip: panel.feed.past.length ? qsTr("Play this event's audio from the archive (a signal stream recorded beside the events)")
                                                       : qsTr("Play this event's audio")
                            onClicked: { panel.feed.events.selectedRow = row.index; panel.play(row.index) }
                        }
                    }
                }
            }
        }
    }

    Toast { id: toast; objectName: "localizationToast" }
}
