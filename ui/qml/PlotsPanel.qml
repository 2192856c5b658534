// Live plots of the running graph: every output with a latency sparkline; for the chosen output
// its latency (last item, p50, p95), throughput and QoS curve; per operator queue lengths, cost per
// item and selectivity (their legends beside the plot); engine memory; under mpirun one row per rank
// (throughput, queue, latency p95). Cards are at least about 300 × 110 px: as many columns as fit
// (up to three), scrolling when the rows do not.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Rectangle {
    id: panel
    property GraphDocument document
    property RunController run
    property string output: run.telemetry.outputs.length ? (run.telemetry.outputs.indexOf(chosen) >= 0 ? chosen : run.telemetry.outputs[0]) : ""
    property string chosen
    property real window: 30
    readonly property var palette: ["#3b82f6", "#f97316", "#22c55e", "#ec4899", "#a855f7", "#14b8a6", "#eab308", "#ef4444",
                                    "#64748b", "#0ea5e9", "#84cc16", "#d946ef"]
    color: Theme.panelAlt

    /// Legend of a per-operator plot: every operator, the highest `figure` now first (re-sorted as
    /// the run's clock passes a whole second, so it holds still while read).
    function operatorLegend(figure) {
        const second = Math.floor(panel.run.elapsed)
        return panel.run.telemetry.nodes.map((id, i) => ({label: id, color: panel.palette[i % panel.palette.length],
                                                          value: panel.run.telemetry.latest("node/" + id + "/" + figure)}))
                   .sort((a, b) => b.value - a.value)
    }
    /// Some item has reached the chosen output in the newest run (before that its latency says nothing).
    function reached() { return panel.run.telemetry.latest("output/" + panel.output + "/items") > 0 }
    function rate(v) { return v >= 1e6 ? (v / 1e6).toFixed(2) + " M" : v >= 1e3 ? (v / 1e3).toFixed(1) + " k" : v.toFixed(0) + " " }

    Text {
        visible: panel.run.telemetry.runCount === 0
        anchors.centerIn: parent
        text: qsTr("Run the graph (F5) to see latency, throughput, queues and memory here.")
        color: Theme.textDim
        font.pixelSize: Theme.fontSize
    }

    RowLayout {
        visible: panel.run.telemetry.runCount > 0
        anchors.fill: parent
        anchors.margins: 8
        spacing: 8

        ColumnLayout {  // outputs, each with a latency sparkline; under mpirun the ranks below them
            Layout.preferredWidth: 230
            Layout.maximumWidth: 230
            Layout.fillHeight: true
            spacing: 8
            Rectangle {
                Layout.fillWidth: true
                Layout.fillHeight: true
                color: Theme.panel
                radius: 6
                border.color: Theme.border
                ListView {
                    id: outputs
                    anchors.fill: parent
                    anchors.margins: 4
                    clip: true
                    model: panel.run.telemetry.outputs
                    header: Text { text: qsTr("Outputs — latency p50 (ms)"); font.pixelSize: 10; font.bold: true; color: Theme.textDim; padding: 4 }
                    delegate: Rectangle {
                        id: outputRow
                        required property string modelData
                        width: ListView.view.width
                        height: 40
                        radius: 4
                        color: panel.output === modelData ? Theme.accentSoft : "transparent"
                        readonly property real p50: { panel.run.elapsed; return panel.run.telemetry.latest("output/" + modelData + "/latency_p50_ms") }
                        Text { x: 6; y: 4; text: outputRow.modelData; font.pixelSize: Theme.smallFontSize; color: Theme.text; width: 110; elide: Text.ElideRight }
                        Text { x: 6; y: 20; text: outputRow.p50.toFixed(2); font.pixelSize: Theme.smallFontSize; font.family: Theme.monoFont; color: Theme.textDim }
                        LivePlot {
                            x: 120; y: 4
                            width: parent.width - 126; height: 32
                            store: panel.run.telemetry
                            timeWindow: panel.window
                            gridColor: "transparent"
                            series: [{key: "output/" + outputRow.modelData + "/latency_p50_ms", color: Theme.accent, width: 1.2}]
                        }
                        MouseArea { anchors.fill: parent; onClicked: panel.chosen = outputRow.modelData }
                    }
                }
            }
            Rectangle {  // one row per rank when the telemetry comes from a run spread over ranks
                objectName: "rankRows"
                visible: panel.run.telemetry.ranks.length > 0
                Layout.fillWidth: true
                Layout.preferredHeight: rankColumn.implicitHeight + 8
                color: Theme.panel
                radius: 6
                border.color: Theme.border
                Column {
                    id: rankColumn
                    x: 4; y: 4
                    width: parent.width - 8
                    Text { text: qsTr("Ranks — state · samples/s · queued · p95 ms"); font.pixelSize: 10; font.bold: true; color: Theme.textDim; padding: 4 }
                    Repeater {
                        model: panel.run.telemetry.ranks
                        delegate: Text {
                            required property var modelData
                            objectName: "rankRow" + modelData.rank
                            width: rankColumn.width
                            leftPadding: 6
                            elide: Text.ElideRight
                            font.pixelSize: Theme.smallFontSize
                            font.family: Theme.monoFont
                            color: modelData.state === "running" ? Theme.text : Theme.textDim
                            // the state before the figures, so a narrow panel cuts a figure, not the state
                            text: qsTr("rank %1  %2  %3  %4  %5").arg(modelData.rank).arg(modelData.state || qsTr("waiting"))
                                      .arg(panel.rate(modelData.samplesPerSecond)).arg(modelData.queuedItems).arg(modelData.latencyP95Ms.toFixed(2))
                        }
                    }
                }
            }
        }

        ScrollView {
            id: cards
            objectName: "plotCards"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            contentWidth: availableWidth
            readonly property int columns: Math.max(1, Math.min(3, Math.floor(availableWidth / 300)))
            readonly property int rows: Math.ceil(6 / columns)
            readonly property real cardHeight: Math.max(108, (availableHeight - 8 * (rows - 1)) / rows)
            readonly property bool scrolls: rows * cardHeight + 8 * (rows - 1) > availableHeight + 1
            ScrollBar.vertical.policy: scrolls ? ScrollBar.AlwaysOn : ScrollBar.AlwaysOff
            GridLayout {
                width: cards.availableWidth - (cards.scrolls ? 12 : 0)  // room for the scroll bar
                columns: cards.columns
                rowSpacing: 8
                columnSpacing: 8
                PlotCard {
                    Layout.fillWidth: true; Layout.preferredHeight: cards.cardHeight
                    title: qsTr("Latency — %1").arg(panel.output)
                    unit: "ms"
                    store: panel.run.telemetry
                    timeWindow: panel.window
                    reading: { panel.run.elapsed; return "p95 " + (panel.reached() ? panel.run.telemetry.latest("output/" + panel.output + "/latency_p95_ms").toFixed(2) : "—") }
                    legend: [{label: "last", color: "#94a3b8"}, {label: "p50", color: "#3b82f6"}, {label: "p95", color: "#f97316"}]
                    series: [{key: "output/" + panel.output + "/latency_ms", color: "#94a3b8", width: 1},
                             {key: "output/" + panel.output + "/latency_p50_ms", color: "#3b82f6", width: 2},
                             {key: "output/" + panel.output + "/latency_p95_ms", color: "#f97316", width: 2}]
                }
                PlotCard {
                    Layout.fillWidth: true; Layout.preferredHeight: cards.cardHeight
                    title: qsTr("Throughput — %1").arg(panel.output)
                    unit: "items/s"
                    store: panel.run.telemetry
                    timeWindow: panel.window
                    reading: {
                        panel.run.elapsed
                        const samples = panel.run.telemetry.latest("output/" + panel.output + "/samples_per_s")
                        const items = panel.run.telemetry.latest("output/" + panel.output + "/items_per_s")
                        return samples > 0 ? panel.rate(samples) + "S/s" : panel.rate(items) + "items/s"
                    }
                    series: [{key: "output/" + panel.output + "/items_per_s", color: "#22c55e", width: 2}]
                }
                QosCurveEditor {
                    Layout.fillWidth: true; Layout.preferredHeight: cards.cardHeight
                    document: panel.document
                    nodeId: panel.output
                    running: panel.run.running
                    latency: { panel.run.elapsed; return panel.run.running && panel.reached() ? panel.run.telemetry.latest("output/" + panel.output + "/latency_ms") : -1 }
                    utility: { panel.run.elapsed; return panel.run.telemetry.latest("output/" + panel.output + "/utility") }
                }
                PlotCard {
                    Layout.fillWidth: true; Layout.preferredHeight: cards.cardHeight
                    title: qsTr("Queued items per operator")
                    store: panel.run.telemetry
                    timeWindow: panel.window
                    legend: panel.operatorLegend("queued")
                    legendAside: true
                    series: panel.run.telemetry.nodes.map((id, i) => ({key: "node/" + id + "/queued", color: panel.palette[i % panel.palette.length], width: 1.5}))
                }
                PlotCard {
                    id: perOperator
                    Layout.fillWidth: true; Layout.preferredHeight: cards.cardHeight
                    readonly property var metrics: [{title: qsTr("Cost per item"), key: "cost_us", unit: "µs"},
                                                    {title: qsTr("Selectivity (items out per item in)"), key: "selectivity", unit: ""}]
                    property int metric: 0
                    title: metrics[metric].title + "  ⇄"
                    unit: metrics[metric].unit
                    store: panel.run.telemetry
                    timeWindow: panel.window
                    legend: panel.operatorLegend(metrics[metric].key)
                    legendAside: true
                    series: panel.run.telemetry.nodes.map((id, i) => ({key: "node/" + id + "/" + metrics[metric].key, color: panel.palette[i % panel.palette.length], width: 1.5}))
                    MouseArea {  // the title switches between the per-operator figures
                        width: parent.width; height: 24
                        cursorShape: Qt.PointingHandCursor
                        onClicked: perOperator.metric = (perOperator.metric + 1) % perOperator.metrics.length
                    }
                }
                PlotCard {
                    Layout.fillWidth: true; Layout.preferredHeight: cards.cardHeight
                    title: qsTr("Engine memory")
                    unit: "MiB"
                    store: panel.run.telemetry
                    timeWindow: panel.window
                    reading: panel.run.memoryMiB >= 1 ? panel.run.memoryMiB.toFixed(1) + " MiB" : (panel.run.memoryMiB * 1024).toFixed(0) + " KiB"
                    series: [{key: "engine/memory_mib", color: "#a855f7", width: 2}]
                }
            }
        }
    }
}
