// Partitions in the real editor window (docs/scale-out.md): a click selects a node, Alt+2 puts it on
// rank 2 (its edge and pill take the rank's colour, the legend counts it), Alt+− clears it, Ctrl+Z
// undoes; the inspector's spin box sets it too.
import QtQuick
import QtTest

TestCase {
    id: test
    name: "Partitions"
    when: windowShown

    property var window: null
    property var document: window ? window.graphDocument : null
    property var canvas: window ? window.graphCanvas : null

    function init() {
        const component = Qt.createComponent("qrc:/qt/qml/Isochron/Ui/qml/Main.qml")
        verify(component.status === Component.Ready, component.errorString())
        window = component.createObject(null, {width: 1400, height: 900})
        verify(window)
        window.openFile(sourceDirectory + "/samples/scale-out-three-ranks.isograph.json")
        waitForRendering(window.contentItem)
    }
    function cleanup() {
        document.newGraph()
        window.close()
        window.destroy()
        window = null
    }

    // The title bar of node `id` on the screen, in the canvas's coordinates.
    function titleOf(id) {
        const node = document.nodes.get(id)
        return canvas.toScreen(node.posX + 40, node.posY + 12)
    }

    // The texts of the legend's rows under `item`, in order.
    function collectRows(item, rows) {
        if (item.objectName === "partitionLegendRow") rows.push(item.text)
        for (let i = 0; i < item.children.length; ++i) collectRows(item.children[i], rows)
    }
    function legendTitle() { return findChild(canvas, "partitionLegendTitle").text }

    function test_legendShowsTheSamplesRanks() {
        const legend = findChild(canvas, "partitionLegend")
        verify(legend.visible)
        compare(legendTitle(), "Partitions: mpirun -np 3")
        compare(document.partitions.length, 3)
        const rows = []
        for (let i = 0; i < legend.children.length; ++i) collectRows(legend.children[i], rows)
        compare(rows, ["rank 0: 1 node", "rank 1: 4 nodes", "rank 2: 4 nodes"])
    }

    function test_clickAndAltDigitSetsTheRankOneUndoStep() {
        const at = titleOf("spectrogram")
        mouseClick(canvas, at.x, at.y)
        compare(document.selection.nodes, ["spectrogram"])
        keyClick(Qt.Key_5, Qt.AltModifier)
        compare(document.nodes.get("spectrogram").partition, 5)
        compare(legendTitle(), "Partitions: mpirun -np 6")
        compare(document.undoText, "Partition 5 for spectrogram")
        keyClick(Qt.Key_Minus, Qt.AltModifier)
        compare(document.nodes.get("spectrogram").partition, -1)
        keyClick(Qt.Key_Z, Qt.ControlModifier)
        compare(document.nodes.get("spectrogram").partition, 5)
        keyClick(Qt.Key_Z, Qt.ControlModifier)
        compare(document.nodes.get("spectrogram").partition, 1)
        compare(legendTitle(), "Partitions: mpirun -np 3")
    }

    function test_inspectorSpinBoxSetsTheRank() {
        const at = titleOf("level")
        mouseClick(canvas, at.x, at.y)
        compare(document.selection.nodes, ["level"])
        const box = findChild(window, "partitionBox")
        verify(box)
        tryCompare(box, "value", 1)
        box.forceActiveFocus()
        keyClick(Qt.Key_Up)
        compare(document.nodes.get("level").partition, 2)
        keyClick(Qt.Key_Down)
        keyClick(Qt.Key_Down)
        compare(document.nodes.get("level").partition, 0)
    }
}
