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

    /// Lines a per-operator plot draws at most: the highest operators of its legend. A graph of a
    /// thousand operators gives a thousand legend rows but would give an unreadable tangle of lines
    /// (in twelve colours) that costs the editor a redraw per line per snapshot.
    readonly property int drawnOperators: 12
    /// Legend of a per-operator plot: every operator, the highest `figure` now first, re-sorted once
    /// a second (so it holds still while read, and its cost does not follow the snapshot rate); the
    /// ones past drawnOperators have a grey swatch and no line.
    function operatorLegend(figure) {
        panel.run.telemetry.runSecond
        panel.run.telemetry.nodes
        return panel.run.telemetry.operatorRanking(figure).map((row, rank) => ({
            label: row.label, value: row.value, drawn: rank < panel.drawnOperators,
            color: rank < panel.drawnOperators ? panel.palette[row.index % panel.palette.length] : Theme.textFaint}))
    }
    /// The lines of a per-operator plot: the drawn operators of its `legend`.
    function operatorSeries(legend, figure) {
        return legend.filter(entry => entry.drawn).map(entry => ({key: "node/" + entry.label + "/" + figure, color: entry.color, width: 1.5}))
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
            id: sideColumn
            // wide enough for the ranks' table, up to 45% of the panel (its state column elides beyond)
            readonly property real fitting: rankRows.visible ? Math.max(230, Math.min(rankRows.naturalWidth, panel.width * 0.45)) : 230
            Layout.preferredWidth: fitting
            Layout.maximumWidth: fitting
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
                id: rankRows
                objectName: "rankRows"
                visible: panel.run.telemetry.ranks.length > 0
                Layout.fillWidth: true
                Layout.preferredHeight: rankColumn.implicitHeight + 8
                color: Theme.panel
                radius: 6
                border.color: Theme.border
                FontMetrics { id: rankFont; font.family: Theme.monoFont; font.pixelSize: Theme.smallFontSize }
                readonly property var headers: [qsTr("rank"), qsTr("state"), qsTr("samples/s"), qsTr("queued"), qsTr("p95 ms")]
                readonly property real gap: 10
                /// The cells of a rank's row, as the columns show them.
                function cells(row) {
                    return [String(row.rank), row.state || qsTr("waiting"), panel.rate(row.samplesPerSecond).trim(), String(row.queuedItems),
                            row.latencyP95Ms.toFixed(2)]
                }
                /// Each column as wide as its widest cell; a long state ("failed: node …") elides at 20 characters.
                readonly property var columnWidths: {
                    const widths = headers.map(h => rankFont.advanceWidth(h))
                    for (const row of panel.run.telemetry.ranks) cells(row).forEach((t, i) => widths[i] = Math.max(widths[i], rankFont.advanceWidth(t)))
                    widths[1] = Math.min(widths[1], rankFont.averageCharacterWidth * 20)
                    return widths.map(w => Math.ceil(w))
                }
                readonly property real naturalWidth: columnWidths.reduce((a, b) => a + b, 0) + gap * (columnWidths.length - 1) + 2 * 10 + 8
                // The state column takes what the panel leaves when the table cannot have its natural width
                // (from the width the column asks for, not the one the layout gives, which would loop).
                readonly property real stateWidth: Math.max(rankFont.averageCharacterWidth * 4, columnWidths[1] - Math.max(0, naturalWidth - sideColumn.fitting))
                Column {
                    id: rankColumn
                    x: 4; y: 4
                    width: parent.width - 8
                    Text { text: qsTr("Ranks"); font.pixelSize: 10; font.bold: true; color: Theme.textDim; padding: 4 }
                    Row {  // the column heads
                        leftPadding: 6
                        spacing: rankRows.gap
                        Repeater {
                            model: rankRows.headers
                            delegate: Text {
                                required property string modelData
                                required property int index
                                width: index === 1 ? rankRows.stateWidth : rankRows.columnWidths[index]
                                horizontalAlignment: index >= 2 ? Text.AlignRight : Text.AlignLeft
                                text: modelData
                                font: rankFont.font
                                color: Theme.textDim
                            }
                        }
                    }
                    Repeater {
                        model: panel.run.telemetry.ranks
                        delegate: Row {
                            id: rankRow
                            required property var modelData
                            readonly property var cells: rankRows.cells(modelData)
                            /// The row as one line ("rank 0  running  96.3 k  0  0.81"), for its tooltip and tests.
                            readonly property string text: qsTr("rank %1").arg(cells[0]) + "  " + cells.slice(1).join("  ")
                            objectName: "rankRow" + modelData.rank
                            leftPadding: 6
                            spacing: rankRows.gap
                            Repeater {
                                model: rankRow.cells
                                delegate: Text {
                                    required property string modelData
                                    required property int index
                                    objectName: "rankCell" + index
                                    width: index === 1 ? rankRows.stateWidth : rankRows.columnWidths[index]
                                    horizontalAlignment: index >= 2 ? Text.AlignRight : Text.AlignLeft
                                    elide: Text.ElideRight
                                    text: modelData
                                    font: rankFont.font
                                    color: rankRow.modelData.state === "running" ? Theme.text : Theme.textDim
                                }
                            }
                            HoverHandler { id: rankHover }
                            ToolTip.visible: rankHover.hovered
                            ToolTip.text: rankRow.text
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
            // Its implicit size follows its width (contentWidth: availableWidth): the layout must not
            // ask for it, or a change of the side column's width loops the layout.
            Layout.preferredWidth: 300
            Layout.preferredHeight: 108
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
                    id: queuedCard
                    Layout.fillWidth: true; Layout.preferredHeight: cards.cardHeight
                    title: qsTr("Queued items per operator")
                    store: panel.run.telemetry
                    timeWindow: panel.window
                    legend: panel.operatorLegend("queued")
                    legendAside: true
                    series: panel.operatorSeries(queuedCard.legend, "queued")
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
                    series: panel.operatorSeries(perOperator.legend, metrics[metric].key)
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
