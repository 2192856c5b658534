// Scheduler comparison: run the graph under several schedulers one after another from the same
// input, overlay latency over time, latency CDF, throughput and memory, and tabulate the chosen
// output's summaries (CSV and PNG export). A latency counts delivered items only, so the table and
// the latency plot also show what each run left waiting in queues, and how long the oldest of it had
// waited: a scheduler that delivers little cannot look fast. The four plots share a 2 × 2 grid when there is room for
// cards about 280 px wide, else one shows at a time, chosen above it.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Rectangle {
    id: panel
    property GraphDocument document
    property RunController run
    readonly property var palette: ["#3b82f6", "#f97316", "#22c55e", "#ec4899", "#a855f7", "#14b8a6", "#eab308", "#ef4444", "#64748b", "#0ea5e9"]
    readonly property var runs: { run.telemetry.runCount; run.state; return run.telemetry.runs() }
    readonly property string output: outputChooser.currentText
    /// Scheduler texts to compare ("rtc:burst=4" ticks rtc); the comparison running or run last, if any.
    property var chosen: run && run.sequence.length ? run.sequence : ["df", "fifo", "rtc", "qos"]
    /// Where exports are offered first (the graph's folder).
    property string folder
    color: Theme.panelAlt

    /// Table cells short enough for their columns: three significant digits.
    function shortMs(ms) { return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2) }
    function shortRate(v) { return v >= 1e6 ? (v / 1e6).toFixed(2) + " M" : v >= 1e3 ? (v / 1e3).toFixed(1) + " k" : v.toFixed(0) }
    function runSeries(figure) {
        return runs.map((r, i) => ({key: "output/" + output + "/" + figure, run: i, color: palette[i % palette.length], width: 2}))
    }
    /// Thin lines: how long the oldest item still queued has waited, per run.
    function oldestQueuedSeries() {
        return runs.map((r, i) => ({key: "engine/oldest_queued_ms", run: i, color: palette[i % palette.length], width: 1}))
    }
    function chosenName(text) { return text.split(":")[0] }
    /// What a run left undelivered, for its table row: "0", or "24.1 k · 8.0 s" (items · the oldest one's wait).
    function queuedText(r) { return r.queuedItems > 0 ? shortRate(r.queuedItems) + " · " + shortWait(r.oldestQueuedMs) : "0" }
    function shortWait(ms) { return ms >= 1000 ? (ms / 1000).toFixed(1) + " s" : shortMs(ms) + " ms" }

    RowLayout {
        anchors.fill: parent
        anchors.margins: 8
        spacing: 8

        Rectangle {
            Layout.preferredWidth: 220
            Layout.fillHeight: true
            color: Theme.panel
            radius: 6
            border.color: Theme.border
            ColumnLayout {
                anchors.fill: parent
                anchors.margins: 8
                spacing: 6
                Text { text: qsTr("Schedulers to compare"); font.pixelSize: Theme.fontSize; font.weight: Font.DemiBold; color: Theme.text }
                ListView {
                    objectName: "schedulerList"
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    clip: true
                    model: panel.document.schedulers()
                    delegate: CheckBox {
                        required property var modelData
                        text: modelData.name
                        objectName: "schedulerCheck_" + modelData.name
                        checked: panel.chosen.some(c => panel.chosenName(c) === modelData.name)
                        onToggled: panel.chosen = checked ? panel.chosen.concat([modelData.name]) : panel.chosen.filter(c => panel.chosenName(c) !== modelData.name)
                        ToolTip.visible: hovered
                        ToolTip.text: modelData.summary
                    }
                }
                RowLayout {
                    Text { text: qsTr("output"); color: Theme.textDim; font.pixelSize: Theme.smallFontSize }
                    ComboBox {
                        id: outputChooser
                        Layout.fillWidth: true
                        model: panel.run.telemetry.outputs
                        currentIndex: 0
                    }
                }
                RowLayout {
                    Text { text: qsTr("seconds each"); color: Theme.textDim; font.pixelSize: Theme.smallFontSize }
                    SpinBox { id: seconds; from: 1; to: 600; value: 8; editable: true; Layout.preferredWidth: 100 }
                }
                Button {
                    objectName: "compareButton"
                    Layout.fillWidth: true
                    text: panel.run.sequenceIndex >= 0 ? qsTr("Running %1 of %2…").arg(panel.run.sequenceIndex + 1).arg(panel.run.sequenceLength) : qsTr("Run comparison")
                    enabled: panel.chosen.length > 0 && panel.run.sequenceIndex < 0
                    highlighted: true
                    onClicked: panel.run.compare(panel.chosen, seconds.value)
                }
                RowLayout {
                    Button { objectName: "exportCsvButton"; text: qsTr("Export CSV…"); enabled: panel.runs.length > 0; onClicked: csvDialog.openIn(panel.folder, "comparison.csv") }
                    Button { objectName: "exportPngButton"; text: qsTr("PNG…"); enabled: panel.runs.length > 0; onClicked: pngDialog.openIn(panel.folder, "comparison.png") }
                }
                Text { id: exportMessage; Layout.fillWidth: true; wrapMode: Text.WordWrap; font.pixelSize: 10; color: Theme.textDim }
            }
        }

        RowLayout {
            id: results
            Layout.fillWidth: true
            Layout.fillHeight: true
            spacing: 8
            ColumnLayout {
                id: figures
                Layout.fillWidth: true
                Layout.fillHeight: true
                spacing: 6
                readonly property bool roomy: width >= 560
                readonly property var titles: [qsTr("Latency p50"), qsTr("Latency CDF"), qsTr("Input rate"), qsTr("Memory")]
                property int shown: 0
                function showing(index) { return roomy || shown === index }
                RowLayout {  // which plot, when only one fits
                    visible: !figures.roomy
                    spacing: 4
                    Repeater {
                        model: figures.titles
                        Button {
                            required property string modelData
                            required property int index
                            objectName: "figureButton"
                            text: modelData
                            flat: figures.shown !== index
                            highlighted: figures.shown === index
                            font.pixelSize: Theme.smallFontSize
                            implicitHeight: 24
                            onClicked: figures.shown = index
                        }
                    }
                }
                GridLayout {
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    columns: figures.roomy ? 2 : 1
                    columnSpacing: 8
                    rowSpacing: 8
                    PlotCard {
                        Layout.fillWidth: true; Layout.fillHeight: true
                        visible: figures.showing(0)
                        title: panel.output.length ? qsTr("Latency p50 — %1").arg(panel.output) : qsTr("Latency p50")
                        unit: "ms"
                        store: panel.run.telemetry
                        timeWindow: 0
                        // A run that left items queued: its thin line is the wait of the oldest of them.
                        legend: panel.runs.map((r, i) => ({label: r.label.split(":")[0], color: panel.palette[i % panel.palette.length]}))
                                .concat(panel.runs.some(r => r.queuedItems > 0) ? [{label: qsTr("thin: oldest queued"), color: Theme.textDim}] : [])
                        series: panel.runSeries("latency_p50_ms").concat(panel.oldestQueuedSeries())
                    }
                    Rectangle {
                        Layout.fillWidth: true; Layout.fillHeight: true
                        visible: figures.showing(1)
                        color: Theme.panel; radius: 6; border.color: Theme.border
                        Text {
                            objectName: "plotTitle"
                            x: 8; y: 8
                            width: parent.width - 16
                            text: qsTr("Latency CDF")
                            elide: Text.ElideRight
                            font.pixelSize: Theme.fontSize; font.weight: Font.DemiBold; color: Theme.text
                            ToolTip.visible: cdfHover.hovered
                            ToolTip.text: qsTr("Share of items with at most this latency, from the latency sampled 30 times a second")
                            HoverHandler { id: cdfHover }
                        }
                        Canvas {
                            id: cdf
                            anchors.fill: parent
                            anchors.margins: 8
                            anchors.topMargin: 28
                            property var curves: { panel.runs; return panel.runs.map((r, i) => panel.run.telemetry.latencyCdf(i, 64)) }
                            onCurvesChanged: requestPaint()
                            onPaint: {
                                const g = getContext("2d")
                                g.reset()
                                let max = 1
                                for (const c of curves) for (const p of c) max = Math.max(max, p.latency)
                                g.font = "9px sans-serif"; g.fillStyle = Theme.textFaint
                                g.fillText("0", 0, height - 2); g.fillText(max.toFixed(1) + " ms", width - 48, height - 2)
                                curves.forEach((c, i) => {
                                    g.strokeStyle = panel.palette[i % panel.palette.length]; g.lineWidth = 2
                                    g.beginPath()
                                    c.forEach((p, k) => {
                                        const x = p.latency / max * (width - 4), y = (1 - p.p) * (height - 14)
                                        if (k === 0) g.moveTo(x, y); else g.lineTo(x, y)
                                    })
                                    g.stroke()
                                })
                            }
                        }
                    }
                    PlotCard {
                        Layout.fillWidth: true; Layout.fillHeight: true
                        visible: figures.showing(2)
                        title: qsTr("Input rate")
                        unit: "samples/s"
                        store: panel.run.telemetry
                        timeWindow: 0
                        series: panel.runs.map((r, i) => ({key: "engine/source_samples_per_s", run: i, color: panel.palette[i % panel.palette.length], width: 2}))
                    }
                    PlotCard {
                        Layout.fillWidth: true; Layout.fillHeight: true
                        visible: figures.showing(3)
                        title: qsTr("Memory")
                        unit: "MiB"
                        store: panel.run.telemetry
                        timeWindow: 0
                        series: panel.runs.map((r, i) => ({key: "engine/memory_mib", run: i, color: panel.palette[i % panel.palette.length], width: 2}))
                    }
                }
            }
            Rectangle {  // the summary table
                id: tableBox
                objectName: "comparisonTable"
                Layout.preferredWidth: Math.max(380, Math.min(560, results.width * 0.42))
                Layout.fillHeight: true
                color: Theme.panel; radius: 6; border.color: Theme.border
                // Relative column widths: the scheduler text ("fifo-slice:slice_us=28") needs the most.
                readonly property var columns: [{title: qsTr("scheduler"), weight: 2.2, tip: ""},
                                                 {title: qsTr("items"), weight: 1, tip: qsTr("items that reached the output")}, {title: qsTr("S/s"), weight: 1.3, tip: qsTr("samples per second reaching the output")},
                                                 {title: "p50", weight: 0.9, tip: qsTr("latency, median (ms)")},
                                                 {title: "p95", weight: 0.9, tip: qsTr("latency, 95th percentile (ms)")},
                                                 {title: "p99", weight: 0.9, tip: qsTr("latency, 99th percentile (ms)")},
                                                 {title: qsTr("queued"), weight: 1.6, tip: qsTr("items still waiting in queues when the run ended, and how long the oldest had waited: the latency columns count delivered items only")},
                                                 {title: qsTr("utility"), weight: 1, tip: qsTr("QoS utility, mean over the run")}]
                readonly property real totalWeight: columns.reduce((sum, c) => sum + c.weight, 0)
                /// The table's width: the box's, but never narrower than its columns can be read at (a
                /// narrower box scrolls it sideways, its scroll bar shown).
                readonly property real tableWidth: Math.max(width - 16, 470)
                function columnWidth(i) { return tableWidth * columns[i].weight / totalWeight }
                Flickable {  // header and rows, scrolled together sideways when the box is narrower than the table
                    id: tableScroll
                    objectName: "comparisonScroll"
                    anchors.fill: parent
                    anchors.leftMargin: 8
                    anchors.rightMargin: 8
                    clip: true
                    contentWidth: tableBox.tableWidth
                    contentHeight: height
                    flickableDirection: Flickable.HorizontalFlick
                    boundsBehavior: Flickable.StopAtBounds
                    ScrollBar.horizontal: ScrollBar {
                        id: sideways
                        objectName: "comparisonScrollBar"
                        visible: tableScroll.contentWidth > tableScroll.width + 0.5
                        policy: visible ? ScrollBar.AlwaysOn : ScrollBar.AlwaysOff
                    }
                    Row {
                        id: headerRow
                        y: 6
                        Repeater {
                            model: tableBox.columns
                            delegate: Text {
                                required property var modelData
                                required property int index
                                objectName: "comparisonHeader"
                                width: tableBox.columnWidth(index)
                                rightPadding: 6
                                text: modelData.title
                                elide: Text.ElideRight
                                font.pixelSize: 10; font.bold: true; color: Theme.textDim
                                ToolTip.visible: headerHover.hovered && (modelData.tip.length > 0 || truncated)
                                ToolTip.text: modelData.tip.length ? modelData.tip : modelData.title
                                HoverHandler { id: headerHover }
                            }
                        }
                    }
                    ListView {
                        id: table
                        y: 26
                        width: tableBox.tableWidth
                        height: tableScroll.height - y - (sideways.visible ? sideways.height : 0)
                        clip: true
                        model: {
                            const rows = []
                            panel.runs.forEach((r, i) => {
                                const outs = (r.summary && r.summary.outputs) || {}
                                if (outs[panel.output]) rows.push({run: i, label: r.label, o: outs[panel.output], queued: panel.queuedText(r), waiting: r.queuedItems > 0})
                            })
                            return rows
                        }
                        delegate: Row {
                            id: tableRow
                            required property var modelData
                            objectName: "comparisonRow"
                            height: 22
                            Row {
                                width: tableBox.columnWidth(0)
                                anchors.verticalCenter: parent.verticalCenter
                                Rectangle { width: 8; height: 8; radius: 2; color: panel.palette[modelData.run % panel.palette.length]; anchors.verticalCenter: parent.verticalCenter }
                                Text {
                                    width: parent.width - 8; leftPadding: 4; rightPadding: 4
                                    text: modelData.label
                                    font.pixelSize: Theme.smallFontSize; color: Theme.text; elide: Text.ElideRight
                                    ToolTip.visible: truncated && labelHover.hovered
                                    ToolTip.text: modelData.label
                                    HoverHandler { id: labelHover }
                                }
                            }
                            Repeater {
                                model: [modelData.o.items, panel.shortRate(modelData.o.samples_per_s), panel.shortMs(modelData.o.latency_ms.p50),
                                        panel.shortMs(modelData.o.latency_ms.p95), panel.shortMs(modelData.o.latency_ms.p99), modelData.queued, modelData.o.utility_average.toFixed(3)]
                                delegate: Text {
                                    required property var modelData
                                    required property int index
                                    // Latency of a run that left items waiting leaves them out: shown in the warning colour.
                                    readonly property bool partial: index >= 2 && index <= 5 && tableRow.modelData.waiting
                                    objectName: "comparisonCell"
                                    width: tableBox.columnWidth(index + 1)
                                    rightPadding: 4
                                    text: String(modelData)
                                    font.pixelSize: 10; font.family: Theme.monoFont; color: partial ? Theme.warning : Theme.text; elide: Text.ElideRight
                                    // A cell cut short shows its whole text on hover.
                                    ToolTip.visible: (partial || truncated) && cellHover.hovered
                                    ToolTip.text: partial ? qsTr("%1 (delivered items only: %2 still waited in queues at the end)").arg(text).arg(tableRow.modelData.queued) : text
                                    HoverHandler { id: cellHover }
                                    anchors.verticalCenter: parent.verticalCenter
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    FilePicker {
        id: csvDialog
        title: qsTr("Export the comparison as CSV")
        mode: "save"
        defaultSuffix: ".csv"
        filters: [{label: "CSV (*.csv)", patterns: ["*.csv"]}]
        onFileChosen: (path) => {
            const error = panel.run.telemetry.exportCsv(path)
            exportMessage.text = error.length ? error : qsTr("Saved %1").arg(path)
        }
    }
    FilePicker {
        id: pngDialog
        title: qsTr("Export the comparison as PNG")
        mode: "save"
        defaultSuffix: ".png"
        filters: [{label: "PNG (*.png)", patterns: ["*.png"]}]
        onFileChosen: (path) => results.grabToImage(result => exportMessage.text = result.saveToFile(path) ? qsTr("Saved %1").arg(path) : qsTr("Could not write %1").arg(path))
    }
}
