// An output's QoS graph (utility against latency) as an editable curve: drag points, double-click
// to add one, right-click to remove one. The live operating point shows the latest latency and the
// utility the engine computed for it.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Rectangle {
    id: editor
    property GraphDocument document
    property string nodeId
    property real latency: -1   // operating point (ms), < 0 when not running or before the first item
    property bool running: false  // a run is on: the operating point reads "—" until the first item
    property real utility: 0
    property string error: ""
    readonly property var points: {
        document.revision
        return nodeId.length ? document.qosOf(nodeId) : []
    }
    readonly property real maxLatency: {
        let m = 10
        for (const p of points) m = Math.max(m, p.latency)
        return Math.max(m * 1.25, latency * 1.1)
    }
    color: Theme.panel
    radius: 6
    border.color: Theme.border
    onPointsChanged: chart.requestPaint()
    onLatencyChanged: chart.requestPaint()

    function save(list) { error = document.setQos(nodeId, list) }

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: 8
        spacing: 4
        RowLayout {
            Layout.fillWidth: true
            Text { objectName: "plotTitle"; text: qsTr("QoS — %1").arg(editor.nodeId); font.pixelSize: Theme.fontSize; font.weight: Font.DemiBold; color: Theme.text; Layout.fillWidth: true; elide: Text.ElideRight }
            Text {
                objectName: "qosReading"
                visible: editor.running || editor.latency >= 0
                text: editor.latency >= 0 ? qsTr("%1 ms → %2").arg(editor.latency.toFixed(1)).arg(editor.utility.toFixed(2)) : "—"
                font.pixelSize: Theme.smallFontSize; font.family: Theme.monoFont; color: Theme.text
            }
        }
        Canvas {
            id: chart
            Layout.fillWidth: true
            Layout.fillHeight: true
            property int dragging: -1
            readonly property real plotLeft: 34
            readonly property real plotBottom: height - 16
            function px(latency) { return plotLeft + latency / editor.maxLatency * (width - plotLeft - 8) }
            function py(utility) { return 6 + (1 - utility) * (plotBottom - 6) }
            function toLatency(x) { return Math.max(0, (x - plotLeft) / (width - plotLeft - 8) * editor.maxLatency) }
            function toUtility(y) { return Math.max(0, Math.min(1, 1 - (y - 6) / (plotBottom - 6))) }
            onWidthChanged: requestPaint()
            onHeightChanged: requestPaint()
            onPaint: {
                const g = getContext("2d")
                g.reset()
                g.font = "9px sans-serif"
                g.strokeStyle = Theme.gridMajor
                g.fillStyle = Theme.textFaint
                g.lineWidth = 1
                for (const u of [0, 0.5, 1]) {
                    g.beginPath(); g.moveTo(plotLeft, py(u)); g.lineTo(width - 8, py(u)); g.stroke()
                    g.fillText(u.toFixed(1), 4, py(u) + 3)
                }
                g.fillText("0 ms", plotLeft, height - 3)
                g.fillText(editor.maxLatency.toFixed(0) + " ms", width - 50, height - 3)
                const pts = editor.points
                if (pts.length === 0) return
                g.strokeStyle = Theme.accent
                g.lineWidth = 2
                g.beginPath()
                g.moveTo(plotLeft, py(pts[0].utility))
                for (const p of pts) g.lineTo(px(p.latency), py(p.utility))
                g.lineTo(width - 8, py(pts[pts.length - 1].utility))
                g.stroke()
                for (const p of pts) {
                    g.fillStyle = Theme.panel
                    g.beginPath(); g.arc(px(p.latency), py(p.utility), 4.5, 0, 2 * Math.PI); g.fill()
                    g.strokeStyle = Theme.accent; g.lineWidth = 2; g.stroke()
                }
                if (editor.latency >= 0) {
                    const x = px(editor.latency), y = py(editor.utility)
                    g.strokeStyle = Theme.selection; g.lineWidth = 1
                    g.setLineDash([3, 3]); g.beginPath(); g.moveTo(x, plotBottom); g.lineTo(x, y); g.stroke(); g.setLineDash([])
                    g.fillStyle = Theme.selection
                    g.beginPath(); g.arc(x, y, 5, 0, 2 * Math.PI); g.fill()
                }
            }
            MouseArea {
                anchors.fill: parent
                acceptedButtons: Qt.LeftButton | Qt.RightButton
                function nearest(x, y) {
                    const pts = editor.points
                    for (let i = 0; i < pts.length; ++i) {
                        if (Math.abs(chart.px(pts[i].latency) - x) < 8 && Math.abs(chart.py(pts[i].utility) - y) < 8) return i
                    }
                    return -1
                }
                property var working: []
                onPressed: (mouse) => {
                    const i = nearest(mouse.x, mouse.y)
                    if (mouse.button === Qt.RightButton) {
                        if (i >= 0 && editor.points.length > 1) editor.save(editor.points.filter((p, k) => k !== i))
                        return
                    }
                    chart.dragging = i
                    working = editor.points.map(p => ({latency: p.latency, utility: p.utility}))
                }
                onPositionChanged: (mouse) => {
                    if (chart.dragging < 0) return
                    const i = chart.dragging
                    const lo = i > 0 ? working[i - 1].latency : 0
                    const hi = i < working.length - 1 ? working[i + 1].latency : 1e12
                    working[i] = {latency: Math.max(lo, Math.min(hi, chart.toLatency(mouse.x))), utility: chart.toUtility(mouse.y)}
                    editor.save(working)
                }
                onReleased: chart.dragging = -1
                onDoubleClicked: (mouse) => {
                    const p = {latency: chart.toLatency(mouse.x), utility: chart.toUtility(mouse.y)}
                    const list = editor.points.concat([p]).sort((a, b) => a.latency - b.latency)
                    editor.save(list)
                }
            }
        }
        Text {
            Layout.fillWidth: true
            text: editor.error.length ? editor.error : qsTr("Drag, double-click to add, right-click to remove")
            color: editor.error.length ? Theme.error : Theme.textFaint
            font.pixelSize: 10
            elide: Text.ElideRight
            ToolTip.visible: hintHover.hovered
            ToolTip.text: editor.error.length ? editor.error : qsTr("Drag points; double-click adds one, right-click removes one. Applies on the next run.")
            HoverHandler { id: hintHover }
        }
    }
}
