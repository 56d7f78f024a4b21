// SPDX-License-Identifier: GPL-3.0-or-later
// Times Weka 3.6's own 10 x 10-fold cross-validation (Evaluation.crossValidateModel, seeds 1..R)
// of one classifier on each ARFF file, inside one JVM (JVM start excluded).
// Usage: java -cp weka.jar:DIR WekaCVTimer CLASSIFIER RUNS FOLDS file.arff... [-- options]
import weka.classifiers.Classifier;
import weka.classifiers.Evaluation;
import weka.core.Instances;
import java.io.BufferedReader;
import java.io.FileReader;
import java.util.ArrayList;
import java.util.Random;

public class WekaCVTimer {
    public static void main(String[] args) throws Exception {
        String cls = args[0];
        int runs = Integer.parseInt(args[1]);
        int folds = Integer.parseInt(args[2]);
        ArrayList<String> files = new ArrayList<String>();
        ArrayList<String> opts = new ArrayList<String>();
        boolean inOpts = false;
        for (int i = 3; i < args.length; i++) {
            if (args[i].equals("--")) { inOpts = true; continue; }
            if (inOpts) opts.add(args[i]); else files.add(args[i]);
        }
        System.out.println("file,seconds,pct_correct_pooled");
        for (String f : files) {
            Instances data = new Instances(new BufferedReader(new FileReader(f)));
            data.setClassIndex(data.numAttributes() - 1);
            long t0 = System.nanoTime();
            double correct = 0, total = 0;
            for (int r = 1; r <= runs; r++) {
                Classifier c = Classifier.forName(cls, opts.toArray(new String[0]));
                Evaluation ev = new Evaluation(data);
                ev.crossValidateModel(c, data, folds, new Random(r));
                correct += ev.correct();
                total += ev.numInstances();
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            System.out.println(f + "," + secs + "," + (100.0 * correct / total));
        }
    }
}
